import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { POLL_MS } from './live';
import { qk } from '../api/keys';

/** The console's status, polled for the status bar and the overview (polling goes on while it fails). */
export function useStatus() {
  return useQuery({ queryKey: qk.status(), queryFn: () => call('health.status'), refetchInterval: POLL_MS, retry: false });
}

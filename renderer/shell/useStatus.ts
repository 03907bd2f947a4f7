import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';

/** The console's status, polled for the status bar and the overview. */
export function useStatus() {
  return useQuery({ queryKey: ['health.status'], queryFn: () => call('health.status'), refetchInterval: 5000 });
}

// Live indicators and the console's reachability: while the server does not answer (refused,
// or silent past the client's timeout), every live indicator turns grey and reads "not
// answering since HH:MM:SS" (the last time it answered); polling goes on, so the indicators
// recover by themselves.
import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { qk } from '../api/keys';

export const POLL_MS = 5000;

export function clock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** What needs an operator, polled for the status bar and the Overview. */
export function useAttention() {
  return useQuery({ queryKey: qk.attention(), queryFn: () => call('console.attention'), refetchInterval: POLL_MS, retry: false });
}

/**
 * "not answering since 10:42:07" while the last poll failed, else undefined: since the last answer,
 * or, when there never was one, since the first failure (not the latest retry).
 */
export function useStaleSince(query: { isError: boolean; dataUpdatedAt: number; errorUpdatedAt: number }): string | undefined {
  const firstFailure = useRef<number | undefined>(undefined);
  if (!query.isError) {
    firstFailure.current = undefined;
    return undefined;
  }
  if (query.dataUpdatedAt) return `not answering since ${clock(query.dataUpdatedAt)}`;
  firstFailure.current ??= query.errorUpdatedAt;
  return `not answering since ${clock(firstFailure.current)}`;
}

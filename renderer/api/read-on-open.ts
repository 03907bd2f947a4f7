// A page's read that begins when the page opens. React Query hands a page that mounts while
// another view's read of the same key is on its way that read, and does not read again when
// it lands (staleTime 0 only reads again on the next mount). That read may have been answered
// before a change made elsewhere (an import through the API, another console), and the page
// would show what was true before it: "No workflows yet" after an import. Such a page reads
// again once the read it was handed lands.
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';

export function useReadOnOpen<T, K extends QueryKey>(options: UseQueryOptions<T, Error, T, K>) {
  const client = useQueryClient();
  // Read during the first render, before this page's own queries subscribe and start reading:
  // a read on its way now was started by a view opened earlier.
  const handedInFlight = useRef<boolean | null>(null);
  if (handedInFlight.current === null) handedInFlight.current = client.getQueryState(options.queryKey)?.fetchStatus === 'fetching';
  const query = useQuery(options);
  const { isFetching, refetch } = query;
  useEffect(() => {
    if (!handedInFlight.current || isFetching) return;
    handedInFlight.current = false;
    void refetch();
  }, [isFetching, refetch]);
  return query;
}

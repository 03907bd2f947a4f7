// @vitest-environment happy-dom
// A page opened while another view's read of its list is on its way reads again once that read
// lands (the read may predate an import made elsewhere); a page opened with nothing on its way
// reads once.
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { useReadOnOpen } from '../../renderer/api/read-on-open';

afterEach(cleanup);

function List({ read }: { read: () => Promise<string[]> }) {
  const list = useReadOnOpen({ queryKey: ['workflows.list'], queryFn: read });
  if (!list.data) return <p>Loading</p>;
  return <p>{list.data.length ? list.data.join(', ') : 'No workflows yet'}</p>;
}

const open = (client: QueryClient, read: () => Promise<string[]>) =>
  render(
    <QueryClientProvider client={client}>
      <List read={read} />
    </QueryClientProvider>,
  );

describe('useReadOnOpen', () => {
  it('reads again when the read it was handed lands, and shows what the server holds now', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let stored: string[] = [];
    let reads = 0;
    let handOver!: () => void;
    const held = new Promise<void>((resolve) => (handOver = resolve));
    // An earlier view's read, answered before the import and held on its way.
    const before = [...stored];
    void client.fetchQuery({ queryKey: ['workflows.list'], queryFn: () => held.then(() => before) });
    stored = ['Shout a name'];
    const read = async () => (reads++, [...stored]);
    open(client, read);
    handOver();
    expect(await screen.findByText('Shout a name')).toBeTruthy();
    expect(reads).toBe(1);
  });

  it('reads once when nothing is on its way', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let reads = 0;
    open(client, async () => (reads++, []));
    expect(await screen.findByText('No workflows yet')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
  });
});

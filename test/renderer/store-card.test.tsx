// @vitest-environment happy-dom
// The Overview's store card while the embedded store's first integrity check runs: the status
// has no result yet, so the card says the check is running and reads again soon, and shows the
// result once it lands (not ten seconds later, at the card's usual poll).
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

const answers: unknown[] = [];
let reads = 0;
vi.mock('../../renderer/api/client', () => ({
  call: async (name: string) => {
    if (name !== 'store.status') throw new Error(`unexpected call ${name}`);
    reads++;
    return answers.length > 1 ? answers.shift() : answers[0];
  },
}));
vi.mock('../../renderer/store/StoreBackups', () => ({ StoreBackups: () => null }));

const { StoreCard } = await import('../../renderer/store/StoreCard');

afterEach(cleanup);

const status = (integrity?: object) => ({ kind: 'embedded', location: 'embedded store in /data/console.sqlite', connected: true, ...(integrity ? { integrity } : {}) });

describe('the store card', () => {
  it('says the first integrity check is running, then shows its result within about a second', async () => {
    answers.splice(0, answers.length, status(), status({ ok: true, problems: [], checkedAt: Date.now() }));
    reads = 0;
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <StoreCard />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Integrity check: running…')).toBeTruthy();
    expect(await screen.findByText('ok', {}, { timeout: 3_000 })).toBeTruthy();
    expect(screen.queryByText('Integrity check: running…')).toBeNull();
    expect(reads).toBe(2);
  });
});

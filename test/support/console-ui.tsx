// Component tests: a page mounted with its own query client, talking to a scripted console
// through the same preload bridge the desktop app uses.
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';

export type Reply = { ok: true; data: unknown } | { ok: false; error: { statusCode: number; error: string; message: string } };

/** Installs a console whose operations answer as scripted; returns the calls made, in order. */
export function scripted(operations: Record<string, (input?: unknown) => Reply | Promise<Reply>>) {
  const calls: { name: string; input: unknown }[] = [];
  window.consoleApi = {
    operations: Object.fromEntries(
      Object.entries(operations).map(([name, fn]) => [
        name,
        async (input?: unknown) => {
          calls.push({ name, input });
          return fn(input);
        },
      ]),
    ),
  };
  return calls;
}

export function renderWithClient(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

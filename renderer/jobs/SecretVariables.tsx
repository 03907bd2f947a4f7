// A job's secret variables on its page: the job answers them as the service does (in clear, its
// clients read them), and lists their names in `secretVariables` (the core's one classifier). The
// page shows them masked, in the job's variables and in each task's incoming and outgoing values
// under the same names, until the operator reveals them; a reveal is logged by the console
// (`jobs.reveal`) before anything is shown.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { call } from '../api/client';

export const MASK = '********';

interface Secrets {
  names: readonly string[];
  revealed: boolean;
}

const SecretsContext = createContext<Secrets>({ names: [], revealed: true });

/** `value` as the page shows it: each top-level field named as a secret variable masked until revealed. */
export function useMaskedValue(value: unknown): unknown {
  const { names, revealed } = useContext(SecretsContext);
  if (revealed || names.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, names.includes(key) && item !== undefined && item !== null && item !== '' ? MASK : item]));
}

/** The job's page within it masks its secret variables; above the variables, what is masked and the Reveal button. */
export function SecretVariables({ jobId, names, children }: { jobId: string; names: readonly string[]; children: ReactNode }) {
  const [revealed, setRevealed] = useState(false);
  const reveal = useMutation({
    mutationFn: () => call('jobs.reveal', { params: { id: jobId }, body: { variables: [...names] } }),
    onSuccess: () => setRevealed(true),
  });
  return (
    <SecretsContext.Provider value={{ names, revealed }}>
      {names.length > 0 && (
        <p className="secret-variables" aria-label="Secret variables">
          {revealed ? 'Shown in clear: ' : 'Masked as secrets: '}
          <span>{names.join(', ')}</span>{' '}
          {revealed ? (
            <button type="button" onClick={() => setRevealed(false)}>
              Hide secrets
            </button>
          ) : (
            <button type="button" onClick={() => reveal.mutate()} disabled={reveal.isPending} title="Shows their values; the console log records who revealed them">
              Reveal secrets
            </button>
          )}
          {reveal.isError && <span className="error"> {reveal.error.message}</span>}
        </p>
      )}
      {children}
    </SecretsContext.Provider>
  );
}

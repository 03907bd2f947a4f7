// A job's secret variables on its page: the job answers them as the service does (in clear, its
// clients read them), and lists their names in `secretVariables` (the core's one classifier). The
// page shows them masked, in the job's variables and in each task's incoming and outgoing values
// under the same names, until the operator reveals them; a reveal is logged by the console
// (`jobs.reveal`) before anything is shown.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { call } from '../api/client';

export const MASK = '********';

export interface Secrets {
  names: readonly string[];
  revealed: boolean;
}

const SecretsContext = createContext<Secrets>({ names: [], revealed: true });

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Whether the page masks this field: named as a secret variable and holding something. */
export const isMasked = (names: readonly string[], key: string, item: unknown) => names.includes(key) && item !== undefined && item !== null && item !== '';

/** `value` with each top-level field named in `names` masked (an empty one stays as it is). */
export function maskValue(value: unknown, names: readonly string[]): unknown {
  if (names.length === 0 || !isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isMasked(names, key, item) ? MASK : item]));
}

/**
 * What the operator edited from a masked `original`, with each field still reading the mask given
 * back its real value: a value the operator did not touch is never sent as the mask string.
 */
export function unmaskValue(edited: Record<string, unknown>, original: unknown, names: readonly string[]): Record<string, unknown> {
  if (names.length === 0 || !isRecord(original)) return edited;
  return Object.fromEntries(Object.entries(edited).map(([key, item]) => [key, item === MASK && isMasked(names, key, original[key]) ? original[key] : item]));
}

/** The page's secret variables and whether the operator has revealed them (outside a job's page: none, shown). */
export function useSecrets(): Secrets {
  return useContext(SecretsContext);
}

/** `value` as the page shows it: each top-level field named as a secret variable masked until revealed. */
export function useMaskedValue(value: unknown): unknown {
  const { names, revealed } = useContext(SecretsContext);
  return revealed ? value : maskValue(value, names);
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

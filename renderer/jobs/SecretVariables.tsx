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
  /** The secret variables' values: a text that is or holds one (a ViewData body of `$var.job.password`) reads masked too. */
  values?: readonly string[];
  revealed: boolean;
}

const SecretsContext = createContext<Secrets>({ names: [], values: [], revealed: true });

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

/** The texts the named variables hold (each text inside an object or list too): what a task's value may carry. */
export function secretValues(variables: unknown, names: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (typeof value === 'string' || typeof value === 'number') {
      if (String(value) !== '') found.add(String(value));
    } else if (value !== null && typeof value === 'object' && depth < 20) Object.values(value).forEach((item) => walk(item, depth + 1));
  };
  if (isRecord(variables)) names.forEach((name) => walk(variables[name], 0));
  return [...found];
}

/** A text with each secret value in it masked: one that is a secret reads the mask; one holding a secret (4 characters or more) reads it masked within. */
function maskText(text: string, values: readonly string[]): string {
  if (values.includes(text)) return MASK;
  return [...values]
    .filter((v) => v.length >= 4)
    .sort((a, b) => b.length - a.length)
    .reduce((out, secret) => out.split(secret).join(MASK), text);
}

/**
 * `value` as a manual task's panel shows it: each field named as a secret variable masked (at any
 * depth), and each text or number that is or holds a secret variable's value masked.
 */
export function maskDeep(value: unknown, secrets: Pick<Secrets, 'names' | 'values'>, depth = 0): unknown {
  const values = secrets.values ?? [];
  if (typeof value === 'string') return maskText(value, values);
  if (typeof value === 'number') return values.includes(String(value)) ? MASK : value;
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, secrets, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isMasked(secrets.names, key, item) ? MASK : maskDeep(item, secrets, depth + 1)]));
}

/**
 * What the operator submitted from a form prefilled with `maskDeep(original)`: each part still
 * reading as it was shown masked gets its real value back, so the mask string is never sent for a
 * value the operator did not edit; what they typed is sent as typed.
 */
export function restoreDeep(edited: unknown, original: unknown, secrets: Pick<Secrets, 'names' | 'values'>, depth = 0): unknown {
  if (JSON.stringify(edited) === JSON.stringify(maskDeep(original, secrets))) return original;
  if (depth > 20) return edited;
  if (Array.isArray(edited) && Array.isArray(original)) return edited.map((item, i) => (i < original.length ? restoreDeep(item, original[i], secrets, depth + 1) : item));
  if (isRecord(edited) && isRecord(original)) {
    const restore = (key: string, item: unknown) => (item === MASK && isMasked(secrets.names, key, original[key]) ? original[key] : restoreDeep(item, original[key], secrets, depth + 1));
    return Object.fromEntries(Object.entries(edited).map(([key, item]) => [key, key in original ? restore(key, item) : item]));
  }
  return edited;
}

/** How a manual task's panel shows a value now: masked (names and values, see maskDeep) until the page's Reveal. */
export function useShownDeep(): (value: unknown) => unknown {
  const secrets = useContext(SecretsContext);
  return (value) => (secrets.revealed ? value : maskDeep(value, secrets));
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
export function SecretVariables({
  jobId,
  names,
  values = [],
  revealNames = names,
  children,
}: {
  jobId: string;
  names: readonly string[];
  values?: readonly string[];
  /** The job's secret variables the reveal logs (`jobs.reveal`); none, the page has no Reveal (the work queue before the job is read). */
  revealNames?: readonly string[];
  children: ReactNode;
}) {
  const [revealed, setRevealed] = useState(false);
  const reveal = useMutation({
    mutationFn: () => call('jobs.reveal', { params: { id: jobId }, body: { variables: [...revealNames] } }),
    onSuccess: () => setRevealed(true),
  });
  return (
    <SecretsContext.Provider value={{ names, values, revealed }}>
      {names.length > 0 && (
        <p className="secret-variables" aria-label="Secret variables">
          {revealed ? 'Shown in clear: ' : 'Masked as secrets: '}
          <span>{names.join(', ')}</span>{' '}
          {revealed ? (
            <button type="button" onClick={() => setRevealed(false)}>
              Hide secrets
            </button>
          ) : revealNames.length === 0 ? (
            <span className="muted small">(the job&apos;s page shows them)</span>
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

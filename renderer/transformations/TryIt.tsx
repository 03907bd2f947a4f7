// The Try it panel: incoming values from a form generated from the incoming
// schemas (or raw JSON), a run, and the outgoing values or the error naming the step.
import { useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { sampleFromSchema, type StoredTransformation } from '../../core/contract/transformations';
import { ApiError, call } from '../api/client';
import { Alert } from '../shell/Alert';

type Schema = Record<string, unknown> & { $id: string; type?: unknown };

function simpleKind(schema: Schema): 'string' | 'number' | 'integer' | 'boolean' | 'json' {
  const type = Array.isArray(schema.type) ? (schema.type.length === 1 ? schema.type[0] : undefined) : schema.type;
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'json';
}

function initialText(schema: Schema): string {
  const sample = sampleFromSchema(schema);
  return simpleKind(schema) === 'string' ? String(sample ?? '') : JSON.stringify(sample, null, 2);
}

/** The value a form field stands for; throws naming the field when its JSON cannot be read. */
function fieldValue(schema: Schema, text: string): unknown {
  const kind = simpleKind(schema);
  if (kind === 'string') return text;
  if (kind === 'boolean') return text === 'true';
  if ((kind === 'number' || kind === 'integer') && text.trim() !== '') return Number(text);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${schema.$id}: not JSON (${(error as Error).message})`, { cause: error });
  }
}

export function TryIt({ doc, onFailedStep }: { doc: StoredTransformation; onFailedStep: (step: string | null) => void }) {
  const schemas = doc.incoming as Schema[];
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(schemas.map((s) => [s.$id, initialText(s)])));
  const [raw, setRaw] = useState(false);
  const [rawText, setRawText] = useState('');
  const [validate, setValidate] = useState(true);
  const [defaults, setDefaults] = useState(true);
  const [inputError, setInputError] = useState<string | null>(null);

  const formValues = useMemo(() => {
    try {
      return Object.fromEntries(schemas.map((s) => [s.$id, fieldValue(s, texts[s.$id] ?? '')]));
    } catch {
      // A field whose JSON cannot be read yet: Run names it; switching to raw JSON starts empty.
      return null;
    }
  }, [schemas, texts]);

  const run = useMutation({
    mutationFn: (incoming: Record<string, unknown>) =>
      call('transformations.run', { params: { id: doc._id }, body: { incoming, options: { validateIncoming: validate, revertToDefaultValue: defaults } } }),
    onSuccess: () => onFailedStep(null),
    onError: (error) => onFailedStep(error instanceof ApiError && error.body.step !== undefined ? String(error.body.step) : null),
  });

  function switchToRaw() {
    setRawText(JSON.stringify(formValues ?? {}, null, 2));
    setRaw(true);
  }

  function onRun() {
    setInputError(null);
    let incoming: Record<string, unknown>;
    try {
      if (raw) {
        const parsed = JSON.parse(rawText || '{}') as unknown;
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the incoming values must be a JSON object of values by $id');
        incoming = parsed as Record<string, unknown>;
      } else {
        incoming = Object.fromEntries(schemas.map((s) => [s.$id, fieldValue(s, texts[s.$id] ?? '')]));
      }
    } catch (error) {
      setInputError((error as Error).message);
      return;
    }
    run.mutate(incoming);
  }

  const error = run.error instanceof ApiError ? run.error : null;
  return (
    <section aria-label="Try it" className="try-it">
      <h2>Try it</h2>
      <p>
        <label>
          <input type="checkbox" checked={raw} onChange={(e) => (e.target.checked ? switchToRaw() : setRaw(false))} /> Raw JSON
        </label>{' '}
        <label>
          <input type="checkbox" checked={validate} onChange={(e) => setValidate(e.target.checked)} /> Validate incoming
        </label>{' '}
        <label>
          <input type="checkbox" checked={defaults} onChange={(e) => setDefaults(e.target.checked)} /> Revert to default values
        </label>
      </p>
      {raw ? (
        <div className="raw-json">
          <label htmlFor="try-raw">Incoming values (JSON, by $id)</label>
          <textarea id="try-raw" rows={10} value={rawText} onChange={(e) => setRawText(e.target.value)} />
        </div>
      ) : schemas.length === 0 ? (
        <p className="muted">This transformation takes no incoming values.</p>
      ) : (
        <div className="try-fields">
          {schemas.map((schema) => {
            const kind = simpleKind(schema);
            const id = `try-${schema.$id}`;
            const value = texts[schema.$id] ?? '';
            const set = (v: string) => setTexts((t) => ({ ...t, [schema.$id]: v }));
            return (
              <div key={schema.$id} className="field">
                <label htmlFor={id}>
                  {schema.$id} <span className="muted">({Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any')})</span>
                </label>
                {kind === 'boolean' ? (
                  <select id={id} value={value === 'true' ? 'true' : 'false'} onChange={(e) => set(e.target.value)}>
                    <option value="false">false</option>
                    <option value="true">true</option>
                  </select>
                ) : kind === 'json' ? (
                  <textarea id={id} rows={Math.min(12, value.split('\n').length + 1)} value={value} onChange={(e) => set(e.target.value)} />
                ) : (
                  <input id={id} type={kind === 'string' ? 'text' : 'number'} value={value} onChange={(e) => set(e.target.value)} />
                )}
              </div>
            );
          })}
        </div>
      )}
      <button type="button" onClick={onRun} disabled={run.isPending}>
        {run.isPending ? 'Running…' : 'Run'}
      </button>
      {inputError && (
        <Alert>
          Cannot run: {inputError}
        </Alert>
      )}
      {run.isError && (
        <Alert look="error-banner" as="div" label="Run error">
          <strong>The run failed{error?.body.step !== undefined ? ` at step ${String(error.body.step)}` : ''}.</strong> {run.error.message}
          {error && error.body.issues && error.body.issues.length > 0 && (
            <ul>
              {error.body.issues.map((i) => (
                <li key={i.path}>
                  {i.path.replace(/^body\./, '')}: {i.message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {run.isSuccess && (
        <div aria-label="Outgoing values">
          <h3>Outgoing values</h3>
          <pre className="json">{JSON.stringify(run.data.outgoing, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}

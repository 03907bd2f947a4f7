// Where does an API stand? Method, path and (optionally) a release; the answer names the state,
// the removal release and the replacements.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, call } from '../api/client';
import { Alert } from '../shell/Alert';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const STATE_CLASS = { active: 'badge good', deprecated: 'badge warn', removed: 'badge bad' } as const;

export function LifecycleLookup({ running }: { running: string }) {
  const [method, setMethod] = useState('GET');
  const [path, setPath] = useState('/admin/services/health');
  const [release, setRelease] = useState('');
  const lookup = useMutation({
    mutationFn: () => call('release.lifecycle', { query: { method, path, ...(release.trim() ? { release: release.trim() } : {}) } }),
  });
  const errors = lookup.error instanceof ApiError ? lookup.error.fieldErrors : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    lookup.mutate();
  };
  return (
    <section aria-label="API lifecycle">
      <h2>Where does an API stand?</h2>
      <form onSubmit={submit} className="lifecycle-form">
        <label>
          Method{' '}
          <select value={method} onChange={(e) => setMethod(e.target.value)}>
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>{' '}
        <label>
          Path <input value={path} onChange={(e) => setPath(e.target.value)} size={36} />
        </label>{' '}
        <label>
          At release <input value={release} onChange={(e) => setRelease(e.target.value)} placeholder={running} size={10} />
        </label>{' '}
        <button type="submit" disabled={lookup.isPending}>
          Look up
        </button>
      </form>
      {(errors['query.release'] || errors['query.path']) && (
        <Alert>
          {errors['query.release'] ?? errors['query.path']}
        </Alert>
      )}
      {lookup.isError && !errors['query.release'] && !errors['query.path'] && (
        <Alert>
          {lookup.error.message}
        </Alert>
      )}
      {lookup.data && (
        <p role="status" aria-label="Lifecycle answer">
          <span className={STATE_CLASS[lookup.data.state]}>{lookup.data.state}</span> {lookup.data.message}
        </p>
      )}
    </section>
  );
}

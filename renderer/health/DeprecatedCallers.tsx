// Who still calls deprecated or removed APIs (release notes 9.3: custom applications must move
// to the replacements): one row per API and caller, with the count and the last call.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { REFRESH_MS } from './HealthTable';
import { qk } from '../api/keys';

const STATE_CLASS = { active: 'badge good', deprecated: 'badge warn', removed: 'badge bad' } as const;

export function DeprecatedCallers() {
  const calls = useQuery({
    queryKey: qk.deprecatedCalls(),
    queryFn: () => call('health.deprecatedCalls'),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  if (calls.isPending) return <p>Loading the calls to deprecated APIs…</p>;
  if (calls.isError && !calls.data) return <p className="error">Cannot read the calls to deprecated APIs: {calls.error.message}</p>;
  if (calls.data.results.length === 0) {
    return <p className="muted">No caller has used a deprecated or removed API since the console started.</p>;
  }
  return (
    <table aria-label="Callers of deprecated APIs">
      <thead>
        <tr>
          <th>Caller</th>
          <th>API</th>
          <th>State</th>
          <th>Calls</th>
          <th>Last call</th>
          <th>Use instead</th>
        </tr>
      </thead>
      <tbody>
        {calls.data.results.map((row) => (
          <tr key={`${row.method} ${row.path} ${row.caller}`}>
            <td>{row.caller}</td>
            <td>
              <code>
                {row.method} {row.path}
              </code>
            </td>
            <td>
              <span className={STATE_CLASS[row.state]}>{row.state}</span>
              <div className="muted small">
                deprecated {row.deprecated ?? '—'}, removal {row.removal ?? '—'}
              </div>
            </td>
            <td>{row.count}</td>
            <td>{new Date(row.lastAt).toLocaleString()}</td>
            <td>{row.replacements.map((r) => r.text).join(' or ') || 'drop the call'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

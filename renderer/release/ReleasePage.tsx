// The Release page: the deprecation/removal table of the release notes (section 9.1), each item's
// state at the running release with its replacements, and the deprecation policy findings.
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { LifecycleLookup } from './LifecycleLookup';
import { qk } from '../api/keys';

const STATE_CLASS = { active: 'badge good', deprecated: 'badge warn', removed: 'badge bad' } as const;

export function ReleasePage() {
  const table = useQuery({ queryKey: qk.release(), queryFn: () => call('release.table') });
  return (
    <section>
      <h1>Release</h1>
      {table.isPending && <p>Loading the release table…</p>}
      {table.isError && <p className="error">Cannot read the release table: {table.error.message}</p>}
      {table.data && (
        <>
          <p>
            Running release <strong>{table.data.running}</strong>. {table.data.policy}
          </p>
          <h2>Deprecation and removal table</h2>
          {table.data.rows.length === 0 ? (
            <p className="muted">The release notes list no deprecated or removed items.</p>
          ) : (
            <table aria-label="Deprecation and removal table">
              <thead>
                <tr>
                  <th>Item</th>
                  <th>Description</th>
                  <th>Deprecation release</th>
                  <th>Removal release</th>
                  <th>Replacement</th>
                  <th>At {table.data.running}</th>
                </tr>
              </thead>
              <tbody>
                {table.data.rows.map((row) => (
                  <tr key={row.id}>
                    <td>
                      <code>{row.item}</code>
                    </td>
                    <td>{row.description}</td>
                    <td>{row.deprecated ?? <span className="muted">not shown</span>}</td>
                    <td>
                      {row.removal}
                      {row.removalNote && <span className="muted"> ({row.removalNote})</span>}
                    </td>
                    <td>{row.replacements.map((r) => r.text).join(' or ')}</td>
                    <td>
                      <span className={STATE_CLASS[row.lifecycle.state]}>{row.lifecycle.state}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Policy findings</h2>
          {table.data.findings.length === 0 ? (
            <p className="good">Every item follows the deprecation policy.</p>
          ) : (
            <ul aria-label="Policy findings" className="findings">
              {table.data.findings.map((finding) => (
                <li key={`${finding.rowId}-${finding.problem}`} className="warn">
                  {finding.message}
                </li>
              ))}
            </ul>
          )}
          <LifecycleLookup running={table.data.running} />
        </>
      )}
    </section>
  );
}

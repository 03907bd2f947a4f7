// The summary of an import: counts, every artifact with where it went, the problems
// of a refused workflow, and what each imported workflow still needs.
import type { ImportItem, ImportSummary } from '../../core/contract/projects';
import { NeedsCell } from '../workflows/Needs';
import { SimulateMissing } from '../workflows/SimulateMissing';

const OUTCOME: Record<ImportItem['outcome'], string> = { imported: 'imported', replaced: 'replaced', refused: 'refused', skipped: 'left out' };

export function ImportSummaryView({ summary }: { summary: ImportSummary }) {
  const { counts } = summary;
  const refused = summary.items.filter((i) => i.outcome === 'refused');
  return (
    <div className="import-summary">
      <p role="status" aria-label="Import summary" className={counts.refused ? 'bad' : 'good'}>
        {summary.format === 'project' ? 'Project' : 'Pre-built'} “{summary.name}”: {counts.imported} imported, {counts.replaced} replaced,{' '}
        {counts.refused} refused, {counts.skipped} left out
        {summary.referencesResolved > 0 && `; ${summary.referencesResolved} project reference${summary.referencesResolved === 1 ? '' : 's'} resolved`}.
      </p>
      {refused.length > 0 && (
        <section aria-label="Refused">
          <h2>Refused</h2>
          <ul>
            {refused.map((item) => (
              <li key={item.source}>
                {item.type} <strong>{item.name}</strong>: {item.problems?.length ? `${item.problems.length} problems` : item.message}
                {item.problems && (
                  <ul>
                    {item.problems.map((p) => (
                      <li key={p.path + p.message}>{p.message}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <h2>What the workflows need</h2>
      {summary.needs.length === 0 ? (
        <p className="good">Every imported workflow has what it needs on this profile.</p>
      ) : (
        <table aria-label="What the workflows need">
          <thead>
            <tr>
              <th>Workflow</th>
              <th>Needs</th>
            </tr>
          </thead>
          <tbody>
            {summary.needs.map((w) => (
              <tr key={w.workflow}>
                <td>
                  <a href={`#/workflows/${encodeURIComponent(w.workflow)}`}>{w.workflow}</a>
                </td>
                <td>
                  <NeedsCell name={w.workflow} needs={w.needs} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summary.needs.length > 0 && <SimulateMissing workflows={summary.needs.map((w) => w.workflow)} />}
      <h2>Artifacts</h2>
      <table aria-label="Artifacts">
        <thead>
          <tr>
            <th>Type</th>
            <th>Name</th>
            <th>Collection</th>
            <th>Outcome</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {summary.items.map((item) => (
            <tr key={item.source + item.name}>
              <td>{item.type}</td>
              <td>{item.name}</td>
              <td>{item.collection ? <code>{item.collection}</code> : <span className="muted">none</span>}</td>
              <td className={item.outcome === 'refused' ? 'bad' : item.outcome === 'skipped' ? 'muted' : undefined}>{OUTCOME[item.outcome]}</td>
              <td>{item.message ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

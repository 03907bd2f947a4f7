// A job's values kept in job_data (the service keeps large values outside the job document).
import type { Job } from '../../core/contract/jobs';
import { call } from '../api/client';

/** The job's values kept in job_data: each one downloaded as JSON (GET /operations-manager/large-data/:id). */
export function LargeData({ items }: { items: NonNullable<Job['largeData']> }) {
  const download = async (id: string, variable: string) => {
    const value = await call('jobs.largeData', { params: { id } });
    const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' })), download: `${variable}.json` });
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <ul aria-label="Large values" className="muted small">
      {items.map((item) => (
        <li key={item.id}>
          {item.task ? `task ${item.task}, ` : ''}
          {item.variable}: {item.size} bytes, kept in job_data <button onClick={() => void download(item.id, item.variable)}>Download</button>
        </li>
      ))}
    </ul>
  );
}

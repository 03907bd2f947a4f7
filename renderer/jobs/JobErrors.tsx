// A job's errors (the service's `error` array) in the Job page's banner: each entry as one line, and
// for a failing system's own answer (an adapter's `{ icode, IAPerror }`), that answer whole on request,
// as the operator needs its origin and raw response to say what to fix.
import type { Job } from '../../core/contract/jobs';
import { Alert } from '../shell/Alert';
import { errorMessage, formatValue } from './format';

type JobErrorEntry = NonNullable<Job['error']>[number];

function Entry({ entry }: { entry: JobErrorEntry }) {
  const answer = entry.message !== null && typeof entry.message === 'object' ? entry.message : undefined;
  return (
    <>
      {errorMessage(entry)}
      {answer !== undefined && (
        <details className="job-error-answer">
          <summary>Answer of task {entry.task}</summary>
          <pre className="json" aria-label={`Answer of task ${entry.task}`}>{formatValue(answer)}</pre>
        </details>
      )}
    </>
  );
}

export function JobErrors({ errors }: { errors: JobErrorEntry[] }) {
  return (
    <Alert look="error-banner" as="div" label="Job error">
      {errors.length === 1 ? (
        <Entry entry={errors[0]!} />
      ) : (
        <ul className="job-errors">
          {errors.map((entry, i) => (
            <li key={i}>
              <Entry entry={entry} />
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

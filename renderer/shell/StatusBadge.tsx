import type { StatusWord } from './status';
import { toneClass } from './status';

/** A status word in its colour, the same on every page. */
export function StatusBadge({ status, label }: { status: StatusWord; label?: string }) {
  return (
    <span className={toneClass(status.tone)} aria-label={label}>
      {status.word}
    </span>
  );
}

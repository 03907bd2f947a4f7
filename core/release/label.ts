// Release labels of the automation service (release notes, section 9): feature releases are
// `year.number` (2022.1) and maintenance releases `year.number.number` (2021.1.10).

export interface ReleaseLabel {
  year: number;
  number: number;
  /** The maintenance number; absent for a feature release. */
  maintenance?: number;
  text: string;
}

const LABEL = /^(\d{4})\.(\d{1,3})(?:\.(\d{1,4}))?$/;

/** Parses a label; throws an Error naming the label and the expected form when it is malformed. */
export function parseRelease(text: string): ReleaseLabel {
  const raw = typeof text === 'string' ? text.trim() : text;
  const match = typeof raw === 'string' ? LABEL.exec(raw) : null;
  const number = match ? Number(match[2]) : 0;
  if (!match || number < 1) {
    throw new Error(
      `malformed release label ${JSON.stringify(text)}: expected year.number (for example 2022.1) or year.number.number (for example 2021.1.10)`,
    );
  }
  const label: ReleaseLabel = { year: Number(match[1]), number, text: raw };
  if (match[3] !== undefined) label.maintenance = Number(match[3]);
  return label;
}

function asLabel(value: string | ReleaseLabel): ReleaseLabel {
  return typeof value === 'string' ? parseRelease(value) : value;
}

/**
 * Orders two releases: negative when `a` comes first, 0 when equal, positive when `a` is later.
 * A feature release comes before its maintenance releases (2021.1 < 2021.1.10 < 2021.2).
 */
export function compareReleases(a: string | ReleaseLabel, b: string | ReleaseLabel): number {
  const x = asLabel(a);
  const y = asLabel(b);
  return x.year - y.year || x.number - y.number || (x.maintenance ?? 0) - (y.maintenance ?? 0);
}

/** The feature release a label belongs to (2021.1.10 → 2021.1). */
export function featureRelease(value: string | ReleaseLabel): string {
  const label = asLabel(value);
  return `${label.year}.${label.number}`;
}

/**
 * How a "release cycle" is counted: the service ships two feature releases a year, year.1 and
 * year.2 (the release notes only ever show these), so each feature release is one cycle and
 * maintenance releases (2021.1.10) belong to their feature release's cycle. 2021.1 → 2022.1 is two
 * cycles (2021.2, 2022.1). A feature number beyond 2 cannot be placed on that calendar: throws.
 */
export function releaseCycleIndex(value: string | ReleaseLabel): number {
  const label = asLabel(value);
  if (label.number > 2) {
    throw new Error(
      `release ${label.text} cannot be counted in release cycles: each year has two feature releases, year.1 and year.2`,
    );
  }
  return label.year * 2 + (label.number - 1);
}

/** Release cycles from `from` to `to` (positive when `to` is later). */
export function releaseCyclesBetween(from: string | ReleaseLabel, to: string | ReleaseLabel): number {
  return releaseCycleIndex(to) - releaseCycleIndex(from);
}

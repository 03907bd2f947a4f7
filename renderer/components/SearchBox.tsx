// The search box of a list page. The page's one SearchBox is the one "/" focuses
// (components/Shortcuts.tsx finds it by its data-page-search attribute).
import { useId } from 'react';

export const PAGE_SEARCH_ATTRIBUTE = 'data-page-search';

export function SearchBox(props: {
  /** The visible label ("Search workflows"); it is also the box's accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What can be searched ("name or description"). */
  placeholder?: string;
  /** A short line beside the box: "12 of 42 shown". */
  status?: string;
  /** A longer accessible name that starts with the label ("Search description, id or variables"). */
  ariaLabel?: string;
}) {
  const id = useId();
  return (
    <p className="search-box">
      <label htmlFor={id}>{props.label}</label>{' '}
      <input
        id={id}
        type="search"
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={(e) => {
          // Escape empties the box first, as a browser's own search fields do.
          if (e.key === 'Escape' && props.value) {
            e.stopPropagation();
            props.onChange('');
          }
        }}
        {...{ [PAGE_SEARCH_ATTRIBUTE]: '' }}
        aria-keyshortcuts="/"
        aria-label={props.ariaLabel}
      />
      {props.status && (
        <span className="muted" aria-live="polite">
          {' '}
          {props.status}
        </span>
      )}
    </p>
  );
}

/** Whether a row's texts hold every word of the search, case-insensitively. */
export function matchesSearch(search: string, ...texts: (string | number | undefined)[]): boolean {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = texts.filter((t) => t !== undefined).join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

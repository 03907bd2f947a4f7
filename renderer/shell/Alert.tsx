import type { ReactNode } from 'react';

/**
 * How an alert looks, by the classes in styles.css: `error` is red text under a form or a section,
 * `error-banner` a red box over a page, `field` a field's message in a form's grid, `warning` a yellow
 * box, `offline` the grey box shown while the console does not answer.
 */
const LOOKS = {
  error: 'error',
  'error-banner': 'banner error',
  field: 'field-error',
  warning: 'banner',
  offline: 'banner offline',
} as const;

export type AlertLook = keyof typeof LOOKS;

export interface AlertProps {
  look?: AlertLook;
  /** The element it is written as: a paragraph, a phrase inside a line, a block with a list, a list. */
  as?: 'p' | 'span' | 'div' | 'ul';
  /** The alert's accessible name, where a page has more than one kind of alert. */
  label?: string;
  id?: string;
  /** Further classes for layout (`small`, a page's own class). */
  className?: string;
  children: ReactNode;
}

/**
 * The one way the console tells the operator something went wrong (or needs them now): announced by
 * screen readers (`role="alert"`), in the same colours on every page.
 */
export function Alert({ look = 'error', as: Tag = 'p', label, id, className, children }: AlertProps) {
  const classes = className ? `${LOOKS[look]} ${className}` : LOOKS[look];
  return (
    <Tag className={classes} role="alert" aria-label={label} id={id}>
      {children}
    </Tag>
  );
}

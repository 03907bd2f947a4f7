// The unsaved-changes guard every form shares: while a form holds edits, leaving
// its page (a link, the back button) asks first, and closing the window warns.
// The hash listener is installed before the app mounts, so it runs before any
// page's own listener and can stop a refused navigation from reaching them.
import { useEffect, useId } from 'react';

const dirty = new Map<string, string>();
let lastHash = typeof window !== 'undefined' ? window.location.hash : '';

export const hasUnsavedChanges = () => dirty.size > 0;

function question() {
  const forms = [...new Set(dirty.values())].join(', ');
  return `You have unsaved changes in ${forms}. Leave this page and lose them?`;
}

if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', (event) => {
    const next = window.location.hash;
    if (dirty.size > 0 && pathOf(next) !== pathOf(lastHash) && !window.confirm(question())) {
      event.stopImmediatePropagation();
      window.history.replaceState(window.history.state, '', lastHash || '#/');
      return;
    }
    lastHash = next;
  });
  window.addEventListener('beforeunload', (event) => {
    if (dirty.size === 0) return;
    event.preventDefault();
    event.returnValue = question();
  });
}

/** Filters (`?…`) change on the same page and never ask. */
function pathOf(hash: string) {
  return hash.split('?')[0];
}

/** Marks the calling form as holding unsaved edits while `isDirty` is true. */
export function useUnsavedChanges(isDirty: boolean, formName: string) {
  const id = useId();
  useEffect(() => {
    if (isDirty) dirty.set(id, formName);
    else dirty.delete(id);
    return () => {
      dirty.delete(id);
    };
  }, [id, isDirty, formName]);
}

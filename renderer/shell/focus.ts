// Focus as a keyboard user follows it: a dialog (or a form that opens in place) takes focus when it
// opens, keeps Tab inside itself while it is modal, and gives focus back to what opened it when it closes.
import { useEffect, type KeyboardEvent, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches inside a container, in order. */
export function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]') && el.getClientRects().length > 0);
}

/**
 * While mounted, focus is inside `ref` (on `initial` when given, else its first field or button); on
 * unmount it goes back to the element that had it before (the button that opened it), when that is still
 * on the page.
 */
export function useFocusInside(ref: RefObject<HTMLElement | null>, initial?: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const container = ref.current;
    const target = initial?.current ?? (container ? focusables(container)[0] : undefined);
    target?.focus();
    return () => {
      // After React has removed the dialog: the opener may be re-rendered in the same commit.
      if (opener?.isConnected) opener.focus();
    };
    // Once per opening: the refs are stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** A modal's onKeyDown: Tab from its last element goes to its first, Shift+Tab from the first to the last. */
export function trapTab(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab') return;
  const inside = focusables(event.currentTarget);
  const first = inside[0];
  const last = inside.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

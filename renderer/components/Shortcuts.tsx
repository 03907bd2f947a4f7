// The console's keyboard shortcuts: "/" focuses the page's search box, "?" opens the
// list of shortcuts. Neither acts while the operator types in a field.
import { useEffect, useRef, useState } from 'react';
import { Dialog } from './Dialog';
import { PAGE_SEARCH_ATTRIBUTE } from './SearchBox';

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: '/', does: "Focus the page's search box (Workflows, Transformations, Adapters, Jobs, Logs)" },
  { keys: '?', does: 'Show these shortcuts' },
  { keys: 'Escape', does: 'Close a dialog or a confirmation with nothing done; empty a search box' },
  { keys: 'Tab / Shift+Tab', does: 'Move between links, buttons and fields (inside an open dialog, its own only)' },
];

/** Whether the key was typed into something that takes text (then it is text, not a shortcut). */
export function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return false;
}

function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} initial={close}>
      <table aria-label="Keyboard shortcuts">
        <thead>
          <tr>
            <th>Key</th>
            <th>Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button ref={close} type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

export function Shortcuts() {
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typingInField(event.target)) return;
      // Not behind an open dialog: the dialog has the keyboard.
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      if (event.key === '/') {
        const box = document.querySelector<HTMLInputElement>(`[${PAGE_SEARCH_ATTRIBUTE}]`);
        if (!box) return;
        event.preventDefault();
        box.focus();
        box.select();
      } else if (event.key === '?') {
        event.preventDefault();
        setHelp(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return help ? <ShortcutHelp onClose={() => setHelp(false)} /> : null;
}

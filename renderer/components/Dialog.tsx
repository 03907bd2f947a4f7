// A modal dialog inside the page: its title names it, focus moves into it (on `initial`) and goes
// back to what opened it when it closes, Tab stays inside it, and Escape closes it (unless `busy`).
import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { trapTab, useFocusInside } from '../shell/focus';

export function Dialog(props: { title: string; onClose: () => void; initial?: RefObject<HTMLElement | null>; busy?: boolean; children: ReactNode }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useFocusInside(box, props.initial);
  return (
    <div className="dialog-backdrop">
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !props.busy) {
            event.stopPropagation();
            props.onClose();
          }
          trapTab(event);
        }}
      >
        <h3 id={titleId}>{props.title}</h3>
        {props.children}
      </div>
    </div>
  );
}

// The console's frame: skip links (to the page, to its main actions), the collapsible navigation, the page of the
// current route (focus moves to its heading on navigation) and the status bar.
import { useEffect, useRef, useState } from 'react';
import { areas } from './areas';
import { StatusBar } from './StatusBar';
import { useRoute } from './route';
import { useStaleSince } from './live';
import { useStatus } from './useStatus';
import { Alert } from './Alert';
import { Shortcuts } from '../components/Shortcuts';
import { focusables } from './focus';
import './unsaved';

const COLLAPSED_KEY = 'console.nav.collapsed';
const NARROW_PX = 1200;

/** The page's main actions (what a page marks `data-page-actions`): the first of them, or the heading when the page marks none. */
function focusActions(main: HTMLElement | null) {
  const actions = main?.querySelector<HTMLElement>('[data-page-actions]');
  const first = actions && (actions.matches('button, a[href], input, select, textarea') ? actions : focusables(actions)[0]);
  if (first) first.focus();
  else focusHeading(main);
}

function focusHeading(main: HTMLElement | null) {
  const heading = main?.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: false });
  } else main?.focus();
}

export function App() {
  const route = useRoute();
  // While the console does not answer, every page's live values are greyed and say since when.
  const offline = useStaleSince(useStatus());
  const current = areas.some((a) => a.id === route.segments[0]) ? route.segments[0]! : areas[0]!.id;
  const area = areas.find((a) => a.id === current)!;
  const main = useRef<HTMLElement>(null);
  // The operator's choice is kept; without one, a narrow window (1024 px) starts with the navigation collapsed.
  const [collapsed, setCollapsed] = useState(() => {
    const saved = window.localStorage.getItem(COLLAPSED_KEY);
    return saved === null ? window.innerWidth < NARROW_PX : saved === 'true';
  });
  const path = route.segments.join('/');
  const first = useRef(true);
  useEffect(() => {
    // Not on the first load: the page opens with focus where the browser puts it.
    if (first.current) {
      first.current = false;
      return;
    }
    // After the page has rendered its heading; unless the operator has already moved into the page
    // (a "/" typed at once, to its search box), whose focus is then theirs to keep.
    const before = document.activeElement;
    const timer = window.setTimeout(() => {
      const now = document.activeElement;
      if (now !== before && now instanceof HTMLElement && main.current?.contains(now)) return;
      focusHeading(main.current);
    }, 0);
    return () => window.clearTimeout(timer);
  }, [path]);
  const toggle = () => {
    window.localStorage.setItem(COLLAPSED_KEY, String(!collapsed));
    setCollapsed(!collapsed);
  };
  return (
    <div className={collapsed ? 'app app--collapsed' : 'app'}>
      <a
        className="skip-link"
        href="#/"
        onClick={(event) => {
          event.preventDefault();
          focusHeading(main.current);
        }}
      >
        Skip to content
      </a>
      <a
        className="skip-link"
        href="#/"
        onClick={(event) => {
          event.preventDefault();
          focusActions(main.current);
        }}
      >
        Skip to actions
      </a>
      <nav className="nav" aria-label="Console areas">
        <div className="nav-top">
          <span className="brand">{collapsed ? 'AC' : 'Automation Console'}</span>
          <button
            type="button"
            className="nav-toggle"
            aria-expanded={!collapsed}
            aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            title={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            onClick={toggle}
          >
            {collapsed ? '»' : '«'}
          </button>
        </div>
        {areas.map((a) => (
          <a key={a.id} href={`#/${a.id}`} aria-current={a.id === current ? 'page' : undefined} title={collapsed ? a.title : undefined}>
            <span className="nav-short" aria-hidden="true">
              {a.title.slice(0, 2)}
            </span>
            <span className="nav-long">{a.title}</span>
          </a>
        ))}
      </nav>
      <main className={offline ? 'content content--offline' : 'content'} id="content" ref={main} tabIndex={-1}>
        {offline && current !== 'overview' && (
          <Alert look="offline">
            The console is {offline}: what this page shows is from then. It refreshes by itself when the console answers again.
          </Alert>
        )}
        {area.render()}
      </main>
      <StatusBar />
      <Shortcuts />
    </div>
  );
}

import { useEffect, useState } from 'react';
import { areas } from './areas';
import { StatusBar } from './StatusBar';

function areaFromHash(): string {
  const id = window.location.hash.replace(/^#\/?/, '').split('/')[0];
  return areas.some((area) => area.id === id) ? id! : areas[0]!.id;
}

export function App() {
  const [current, setCurrent] = useState(areaFromHash);
  useEffect(() => {
    const onHash = () => setCurrent(areaFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const area = areas.find((a) => a.id === current)!;
  return (
    <div className="app">
      <nav className="nav" aria-label="Console areas">
        <div className="brand">Automation Console</div>
        {areas.map((a) => (
          <a key={a.id} href={`#/${a.id}`} aria-current={a.id === current ? 'page' : undefined}>
            {a.title}
          </a>
        ))}
      </nav>
      <main className="content">{area.render()}</main>
      <StatusBar />
    </div>
  );
}

// The Health page: Applications and Adapters tabs (reference health shape, unhealthy rows
// marked, adapter start/stop/restart), the server facts and the callers of deprecated APIs. `#/health/<tab>`.
import { DeprecatedCallers } from './DeprecatedCallers';
import { ServerFacts } from './ServerFacts';
import { useRoute } from '../shell/route';
import { HealthTable } from './HealthTable';

const TABS = [
  { id: 'applications', title: 'Applications' },
  { id: 'adapters', title: 'Adapters' },
  { id: 'server', title: 'Server' },
  { id: 'deprecated', title: 'Deprecated API callers' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const tabOf = (id: string | undefined): TabId => (TABS.some((tab) => tab.id === id) ? (id as TabId) : 'applications');

export function HealthPage() {
  const tab = tabOf(useRoute().segments[1]);
  return (
    <section>
      <h1>Health</h1>
      <div role="tablist" aria-label="Health" className="health-tabs">
        {TABS.map((t) => (
          <a
            key={t.id}
            role="tab"
            href={`#/health/${t.id}`}
            aria-selected={t.id === tab}
            aria-controls={`health-${t.id}`}
            className={t.id === tab ? 'health-tab current' : 'health-tab'}
          >
            {t.title}
          </a>
        ))}
      </div>
      <div role="tabpanel" id={`health-${tab}`} aria-label={TABS.find((t) => t.id === tab)!.title}>
        {tab === 'applications' && <HealthTable key="applications" kind="applications" />}
        {tab === 'adapters' && <HealthTable key="adapters" kind="adapters" />}
        {tab === 'server' && <ServerFacts />}
        {tab === 'deprecated' && <DeprecatedCallers />}
      </div>
    </section>
  );
}

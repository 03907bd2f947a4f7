// The console's areas, in navigation order. Each capability adds its page here.
import type { ReactNode } from 'react';
import { OverviewPage } from '../overview/OverviewPage';
import { ProfilesPage } from '../profiles/ProfilesPage';
import { HealthPage } from '../health/HealthPage';
import { AdaptersPage } from '../adapters/AdaptersPage';
import { ReleasePage } from '../release/ReleasePage';
import { UpgradePage } from '../upgrade/UpgradePage';
import { WorkflowsPage } from '../workflows/WorkflowsPage';
import { JobsPage } from '../jobs/JobsPage';
import { LogsPage } from '../logs/LogsPage';
import { WorklistPage } from '../worklist/WorklistPage';
import { ImportPage } from '../projects/ImportPage';
import { TransformationsPage } from '../transformations/TransformationsPage';
import { DrillsPage } from '../drills/DrillsPage';
import { AutomationsPage } from '../automations/AutomationsPage';

export interface Area {
  id: string;
  title: string;
  render: () => ReactNode;
}

export const areas: Area[] = [
  { id: 'overview', title: 'Overview', render: () => <OverviewPage /> },
  { id: 'profiles', title: 'Profiles', render: () => <ProfilesPage /> },
  { id: 'health', title: 'Health', render: () => <HealthPage /> },
  { id: 'adapters', title: 'Adapters', render: () => <AdaptersPage /> },
  { id: 'workflows', title: 'Workflows', render: () => <WorkflowsPage /> },
  { id: 'automations', title: 'Automations', render: () => <AutomationsPage /> },
  { id: 'jobs', title: 'Jobs', render: () => <JobsPage /> },
  { id: 'logs', title: 'Logs', render: () => <LogsPage /> },
  { id: 'worklist', title: 'Work queue', render: () => <WorklistPage /> },
  { id: 'import', title: 'Import', render: () => <ImportPage /> },
  { id: 'transformations', title: 'Transformations', render: () => <TransformationsPage /> },
  { id: 'drills', title: 'DR Drill', render: () => <DrillsPage /> },
  { id: 'release', title: 'Release', render: () => <ReleasePage /> },
  { id: 'upgrade', title: 'Upgrade', render: () => <UpgradePage /> },
];

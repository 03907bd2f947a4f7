// Tabs shown on the active profile of the Profiles page, beside its properties.
// Capabilities that act on the running profile (Indexing, Configure) add their tab here.
import type { ReactNode } from 'react';
import { IndexingTab } from '../indexing/IndexingTab';
import { ConfigureTab } from '../configure/ConfigureTab';

export interface ActiveProfileTab {
  id: string;
  title: string;
  render: () => ReactNode;
}

export const activeProfileTabs: ActiveProfileTab[] = [
  { id: 'indexing', title: 'Indexing', render: () => <IndexingTab /> },
  { id: 'configure', title: 'Configure', render: () => <ConfigureTab /> },
];

// The deprecation and removal table of release 2022.1 (release notes, section 9.1) as data.
// Shared by the Release page, the removed-API answers of the HTTP server and the upgrade check.

/** The release this console implements. */
export const RUNNING_RELEASE = '2022.1';

export interface Replacement {
  text: string;
  method?: string;
  path?: string;
}

export interface LifecycleRow {
  /** Stable key of the row. */
  id: string;
  /** The item as the release notes name it. */
  item: string;
  kind: 'property' | 'api' | 'command';
  description: string;
  /** Release in which the item was announced as deprecated; absent when the notes do not show one. */
  deprecated?: string;
  /** Release in which the item is (or will be) removed. */
  removal: string;
  /** What the notes say about the removal release beyond the label. */
  removalNote?: string;
  replacements: Replacement[];
  /** API rows: the HTTP method and path (path relative to the service's base URL). */
  method?: string;
  path?: string;
  /** Command rows: the command line. */
  command?: string;
  /** Release-notes sections that describe the item. */
  sections: string[];
}

export const deprecationTable: LifecycleRow[] = [
  {
    id: 'activate',
    item: 'activate (service_config property)',
    kind: 'property',
    description: 'sets whether the workflow engine task worker is active at startup',
    deprecated: '2021.1',
    removal: '2022.1',
    replacements: [{ text: 'processTasksOnStart (properties.json)' }],
    sections: ['1.2', '2.2', '9.1', '9.2'],
  },
  {
    id: 'admin-services-health',
    item: 'GET /admin/services/health',
    kind: 'api',
    description: 'health of all services',
    deprecated: '2021.2',
    removal: '2023.1',
    removalNote: 'stated as the actual removal release',
    method: 'GET',
    path: '/admin/services/health',
    replacements: [
      { text: 'GET /health/adapters', method: 'GET', path: '/health/adapters' },
      { text: 'GET /health/applications', method: 'GET', path: '/health/applications' },
    ],
    sections: ['4', '9.1', '9.3'],
  },
  {
    id: 'npm-run-index',
    item: 'npm run index (indexing script)',
    kind: 'command',
    description: 'creates indexes',
    removal: '2022.1',
    command: 'npm run index',
    replacements: [{ text: 'POST /indexes/:collectionName', method: 'POST', path: '/indexes/:collectionName' }],
    sections: ['4', '9.1'],
  },
];

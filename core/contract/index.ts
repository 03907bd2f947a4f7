// The contract: every operation the UI, scripts and custom applications can call.
// Each capability contributes its own table; this file only joins them.
import { healthOperations } from './health';
import { adaptersOperations } from './adapters';
import { indexesOperations } from './indexes';
import { profilesOperations } from './profiles';
import { releaseOperations } from './release';
import { upgradeOperations } from './upgrade';
import { rehearsalOperations } from './rehearsal';
import { storeOperations } from './store';
import { workflowsOperations } from './workflows';
import { jobsOperations } from './jobs';
import { workersOperations } from './workers';
import { engineMetricsOperations } from './engine-metrics';
import { logsOperations } from './logs';
import { attentionOperations } from './attention';
import { worklistOperations } from './worklist';
import { projectsOperations } from './projects';
import { transformationsOperations } from './transformations';
import { drillsOperations } from './drills';
import { jsonFormsOperations } from './json-forms';
import { automationsOperations } from './automations';
import { accountsOperations } from './accounts';
import { helpOperations } from './help';
import { mopOperations } from './mop';
import { templatesOperations } from './templates';

export const contract = {
  ...healthOperations,
  ...adaptersOperations,
  ...indexesOperations,
  ...profilesOperations,
  ...releaseOperations,
  ...upgradeOperations,
  ...rehearsalOperations,
  ...storeOperations,
  ...workflowsOperations,
  ...jobsOperations,
  ...workersOperations,
  ...engineMetricsOperations,
  ...accountsOperations,
  ...helpOperations,
  ...mopOperations,
  ...templatesOperations,
  ...logsOperations,
  ...attentionOperations,
  ...worklistOperations,
  ...projectsOperations,
  ...transformationsOperations,
  ...drillsOperations,
  ...jsonFormsOperations,
  ...automationsOperations,
};

export type Contract = typeof contract;
export type OperationName = keyof Contract;
export const operationNames = Object.keys(contract) as OperationName[];
export * from './operation';

// Joins the handlers of every capability into the one table the transports serve. Each
// capability gets only the services it names; per-profile services are read at each call,
// so a profile switch (a new runtime) is seen by every handler.
import type { Handlers } from '../dispatch/dispatch';
import type { HostState } from './state';
import { closeRuntime, openRuntime } from './runtime';
import { otherConsoles } from './other-consoles';
import { ConsoleError } from '../errors';
import { openInProcess } from '../store/embedded/store';
import { createHealthService, healthHandlers } from '../health/handlers';
import { StateHistory } from '../health/history';
import { withApiLifecycle } from '../health/lifecycle';
import { createIndexesService, indexesHandlers } from '../indexes/handlers';
import { createProfilesService, profilesHandlers } from '../profiles/handlers';
import { releaseHandlers } from '../release/handlers';
import { createUpgradeService, upgradeHandlers } from '../upgrade/handlers';
import { rehearsalHandlers, Rehearsals } from '../upgrade/rehearsal/handlers';
import { transformationRunner } from '../transformations/task';
import { simulationOf } from '../adapters/simulated/rules';
import { createStoreService, storeHandlers } from '../store/handlers';
import { createWorkflowsService, workflowsHandlers } from '../engine/workflow/handlers';
import { createJobsService, jobsHandlers } from '../engine/jobs/handlers';
import { createWorkersService, workersHandlers } from '../engine/worker/handlers';
import { createEngineMetricsService, engineMetricsHandlers } from '../engine/metrics/handlers';
import { accountsHandlers } from '../accounts/accounts';
import { templatesHandlers } from '../templates/templates';
import { helpHandlers } from '../help/openapi';
import { MOP_TEMPLATES, mopTemplatesHandlers } from '../mop/templates';
import { contract } from '../contract';
import { ADMIN_USER } from '../http/logins/credentials';
import { adaptersHandlers, createAdaptersService } from '../adapters/handlers';
import { defaultApplications } from '../engine/workflow/catalog';
import { applicationsHandlers, createApplicationsService } from '../applications/handlers';
import { APPLICATIONS_VERSION } from '../applications/registry';
import { createLogsService, logsHandlers } from '../logging/handlers';
import { attentionHandlers, createAttentionService } from '../attention/service';
import { createWorklistService, worklistHandlers } from '../worklist/service';
import { desktopOperator } from '../worklist/operator';
import { TASK_CLAIMS } from '../engine/jobs/claims';
import { JOB_HISTORY } from '../engine/jobs/history';
import { declaredCollections } from '../indexes/declared';
import { createProjectsService, projectsHandlers } from '../projects/handlers';
import { exampleSource } from './example';
import { createTransformationsService } from '../transformations/service';
import { transformationsHandlers } from '../transformations/handlers';
import { createDrillsService, drillsHandlers } from '../drills/service';
import { createJsonFormsService, JSON_FORMS_COLLECTION, jsonFormsHandlers } from '../json-forms/service';
import { startScheduleTicker } from '../automations/ticker';
import { AUTOMATIONS_COLLECTION, automationsHandlers, createAutomationsService, createTriggerRunner, TRIGGERS_COLLECTION } from '../automations/handlers';

export function buildHandlers(state: HostState): Handlers {
  const profile = () => state.runtime.config;
  const noActiveProfile = () => {
    const { store } = state.runtime.config;
    return store.kind === 'none' ? store.reason : undefined;
  };
  const store = () => state.runtime.store;
  const adapters = () => state.runtime.adapters;
  const applications = () => state.runtime.applications;
  const engine = () => state.runtime.engine;
  // One per host: the Health page's timelines outlive a profile switch (keyed by kind and name).
  const stateHistory = new StateHistory();
  const { dataDir, serverId } = state;
  const transformations = createTransformationsService({ store });
  // What workflows may call: each adapter instance's methods (by instance name, or by adapter type)
  // and the inputs each method requires.
  const adapterListing = () => ({
    list: () => adapters().callable(),
    methods: (app: string) => adapters().methods(app),
    requiredInputs: (app: string, method: string) => adapters().requiredInputs(app, method),
  });
  const workflows = createWorkflowsService({ store, adapters: adapterListing, writes: () => engine().workflowWrites });
  const storeService = createStoreService({
    dataDir,
    consoleVersion: APPLICATIONS_VERSION,
    vault: state.vault,
    store,
    embeddedFile: () => {
      const config = state.runtime.config.store;
      return config.kind === 'embedded' ? config : undefined;
    },
    // A restore (run in state.lifecycle by the store's handler): the runtime (its task worker first) closes,
    // the file is swapped, and one runtime opens on it again, with no connection of this process left on the replaced file.
    reopen: async (whileClosed) => {
      const config = state.runtime.config;
      await closeRuntime(state.runtime);
      try {
        const file = config.store.kind === 'embedded' ? config.store.file : undefined;
        if (file && openInProcess(file)) throw new ConsoleError('conflict', `${file} is still open in this console (a connection test or drill reads it): not replaced; try again when it has ended`);
        await whileClosed();
      } finally {
        state.runtime = await openRuntime(state, config);
      }
    },
    lifecycle: state.lifecycle,
    otherConsoles: () => otherConsoles(state),
    log: { info: (message) => state.logger.info({ component: 'store' }, message), warn: (message) => state.logger.warn({ component: 'store' }, message) },
  });
  const jobs = createJobsService({
    engine,
    guardStart: () => applications().require('OperationsManager', 'starting a job'),
    startCheck: (name) => workflows.assertStartable(name),
    operator: desktopOperator,
    log: (fields, message) => state.log.logger.info({ component: 'jobs', ...fields }, message),
    workflowNames: async () => (await store().collection('workflows').find({}, { projection: { name: 1 } })).map((w) => String(w.name)),
  });
  // Automations start their workflow the way POST /operations-manager/jobs/start does: the same refusals, the same worker.
  const workflowRef = async (ref: { name?: string; id?: string }) => {
    const found = await store().collection('workflows').findOne(ref.name !== undefined ? { name: ref.name } : { _id: ref.id });
    return found ? { name: String(found.name), ...(found._id !== undefined ? { _id: String(found._id) } : {}) } : null;
  };
  const automations = createAutomationsService({
    automations: () => store().collection(AUTOMATIONS_COLLECTION),
    triggers: () => store().collection(TRIGGERS_COLLECTION),
    workflow: workflowRef,
    hasTransformation: (id) => transformations.has(id),
    user: desktopOperator,
  });
  const triggerRunner = createTriggerRunner(
    {
      triggers: () => store().collection(TRIGGERS_COLLECTION),
      workflow: workflowRef,
      transform: (id, incoming) => transformations.run(id, incoming),
      startJob: async (workflow, options) => {
        jobs.guardStart?.();
        await jobs.startCheck?.(workflow);
        const job = await engine().runner.start(workflow, { ...options, user: desktopOperator() });
        engine().worker.poke();
        return job;
      },
    },
    automations,
  );
  state.schedules = startScheduleTicker({ fireDue: (now) => triggerRunner.fireDueSchedules(now), unavailable: noActiveProfile, log: state.logger });
  // Operations that are API rows of the release's deprecation table answer per their lifecycle.
  return withApiLifecycle(
    {
      ...healthHandlers(
        createHealthService({
          serverId,
          profile,
          store,
          adapters: () => adapters().manager,
          taskWorker: () => ({ running: engine().worker.isRunning, startupValue: engine().startupValue }),
          states: () => {
            // Every caller polls the status (the UI's status bar every 5 s): what it reads feeds the states' history too.
            const apps = applications().snapshot();
            const manager = adapters().manager;
            const adapterStates = manager.states();
            for (const app of apps) stateHistory.observe('application', app.id, { state: app.state });
            manager.list().forEach((id, i) => stateHistory.observe('adapter', id, { state: adapterStates[i]! }));
            return { apps: apps.map((app) => app.state), adapters: adapterStates };
          },
          applications,
          callLog: state.callLog,
          history: stateHistory,
        }),
      ),
      ...adaptersHandlers(
        createAdaptersService({
          adapters,
          simulation: {
            workflows: async () => (await store().collection('workflows').find({}, { projection: { _id: 1, name: 1, tasks: 1 } })).map((w) => ({ _id: w._id, name: String(w.name), tasks: w.tasks })),
            applicationRuns: (app, method) => defaultApplications().get(app)?.includes(method) ?? false,
            applicationKnown: (app) => defaultApplications().has(app),
            transformations: { has: (id) => transformations.has(id), create: (doc) => transformations.create(doc) },
          },
        }),
      ),
      ...applicationsHandlers(createApplicationsService({ applications })),
      ...indexesHandlers(createIndexesService({ indexes: () => state.runtime.indexes })),
      ...profilesHandlers(createProfilesService({ dataDir, vault: state.vault, runningProfileId: () => profile().profileId, noActiveProfile, profileEvents: state.profileEvents })),
      ...releaseHandlers(),
      ...upgradeHandlers(createUpgradeService()),
      ...rehearsalHandlers(
        new Rehearsals({
          source: (collection) => store().collection(collection).find({}),
          // Simulated instances (or a package in its stub mode) answer a rehearsal's adapter tasks; a real one is never called.
          adapters: () => ({
            resolve: (app, args) => adapters().resolve(app, args),
            answersSafely: (id) => {
              const known = adapters().manager.instance(id);
              return known !== undefined && (simulationOf(known.config) !== undefined || (known.config.properties as { stub?: unknown } | undefined)?.stub === true);
            },
            call: (id, method, args, options) => adapters().manager.call(id, method, args, options),
          }),
          transformationsFor: (scratch) => {
            const service = createTransformationsService({ store: () => scratch });
            return transformationRunner(service.resolve, service.runDocument);
          },
        }),
      ),
      ...storeHandlers(storeService),
      ...workflowsHandlers(workflows),
      ...jobsHandlers(jobs),
      ...workersHandlers(createWorkersService({ engine })),
      ...engineMetricsHandlers(createEngineMetricsService({ jobs: () => engine().runner.jobs, tasks: () => engine().runner.tasks })),
      ...accountsHandlers({ operator: desktopOperator, adminUser: ADMIN_USER }),
      ...templatesHandlers({ store, operator: desktopOperator }),
      ...helpHandlers({ operations: contract, version: APPLICATIONS_VERSION }),
      ...mopTemplatesHandlers({ templates: () => store().collection(MOP_TEMPLATES), guard: (what) => applications().require('MOP', what), operator: desktopOperator }),
      ...logsHandlers(createLogsService({ log: state.log })),
      ...transformationsHandlers(createTransformationsService({ store })),
      ...attentionHandlers(
        createAttentionService({
          jobs: () => engine().runner.jobs,
          tasks: () => engine().runner.tasks,
          adapters: () => adapters().manager.items(),
          applications: () => applications().snapshot(),
          indexes: () => Promise.all(declaredCollections.map((declared) => state.runtime.indexes.status(declared))),
          deprecatedCalls: () => state.callLog.list(),
          worker: () => ({ profile: profile().profileId ?? '(none)', processTasksOnStart: engine().startupValue, running: engine().worker.isRunning }),
          drills: () => store().collection('drill_reports'),
          workflows: () => workflows.list(),
          store: () => storeService.condition(),
        }),
      ),
      ...worklistHandlers(
        createWorklistService({
          tasks: () => engine().runner.tasks,
          jobs: () => engine().runner.jobs,
          jobTasks: async (jobId) => (await engine().runner.job(jobId))?.tasks,
          claims: () => store().collection(TASK_CLAIMS),
          claimActions: () => {
            const { runner } = engine();
            return {
              claim: (id, operator) => runner.claimTask(id, operator),
              release: (id, operator) => runner.releaseTask(id, operator),
              takeOver: (id, operator, assignee) => runner.takeOverTask(id, operator, assignee),
            };
          },
          history: () => store().collection(JOB_HISTORY),
          operator: desktopOperator,
        }),
      ),
      ...projectsHandlers(createProjectsService({ store, workflows, transformations, automations, example: () => exampleSource(state.productDir) })),
      ...automationsHandlers({
        service: automations,
        runner: triggerRunner,
        hasWorkflow: async (name) => (await workflowRef({ name })) !== null,
        recentJobs: async (workflow, limit) =>
          (await engine().runner.jobs.find({ name: workflow }, { sort: { 'metrics.start_time': -1 }, limit })).map((job) => ({
            _id: String(job._id),
            name: job.name,
            status: job.status,
            ...(typeof job.description === 'string' ? { description: job.description } : {}),
            start_time: job.metrics.start_time,
          })),
      }),
      ...transformationsHandlers(transformations),
      ...drillsHandlers(createDrillsService({ store, log: state.log.logger.child({ component: 'drills' }), localSite: () => state.api })),
      ...jsonFormsHandlers(createJsonFormsService({ forms: () => store().collection(JSON_FORMS_COLLECTION), guard: (what) => applications().require('JsonForms', what) }), desktopOperator),
    },
    state.callLog,
  );
}

// The built-in applications of the service. They run inside the console process,
// so the process behind each is the console's own: its pid, memory, cpu and uptime.
import type { HealthItem } from '../contract/health';

export type ApplicationState = 'RUNNING' | 'STOPPED' | 'DEAD' | 'DELETED';

export interface ApplicationDefinition {
  id: string;
  package_id: string;
  version: string;
  description: string;
  routePrefix: string;
}

/** Version of the applications shipped with this console release. */
export const APPLICATIONS_VERSION = '2022.1.0';

export const builtInApplications: readonly ApplicationDefinition[] = [
  {
    id: 'WorkFlowEngine',
    package_id: '@automation/app-workflow_engine',
    version: APPLICATIONS_VERSION,
    description: 'Runs workflows, jobs, child jobs and tasks; owns the task worker',
    routePrefix: 'workflow_engine',
  },
  {
    id: 'AdminEssentials',
    package_id: '@automation/app-admin_essentials',
    version: APPLICATIONS_VERSION,
    description: 'Administration: profiles, adapters, health and indexing',
    routePrefix: 'admin_essentials',
  },
  {
    id: 'MOP',
    package_id: '@automation/app-mop',
    version: APPLICATIONS_VERSION,
    description: 'Method of procedure templates and analytic templates',
    routePrefix: 'mop',
  },
  {
    id: 'ServiceCatalog',
    package_id: '@automation/app-service_catalog',
    version: APPLICATIONS_VERSION,
    description: 'The catalog of services offered to operators',
    routePrefix: 'service_catalog',
  },
];


/**
 * The applications and their states. An application is RUNNING while the console runs;
 * a capability that finds its application unusable can mark it (e.g. DEAD) with a reason.
 */
export class ApplicationRegistry {
  private readonly states = new Map<string, { state: ApplicationState; detail?: string }>();

  constructor(
    readonly definitions: readonly ApplicationDefinition[] = builtInApplications,
    /** The console process's log levels, reported per application as the service does. */
    private readonly loggerLevels: () => Record<string, unknown> = () => ({}),
  ) {}

  get(id: string): ApplicationDefinition | undefined {
    return this.definitions.find((app) => app.id === id);
  }

  setState(id: string, state: ApplicationState, detail?: string) {
    if (!this.get(id)) throw new Error(`no application "${id}" (applications: ${this.ids().join(', ')})`);
    this.states.set(id, { state, detail });
  }

  stateOf(id: string) {
    return this.states.get(id) ?? { state: 'RUNNING' as ApplicationState };
  }

  ids() {
    return this.definitions.map((app) => app.id);
  }

  /** Health items in the reference shape, measured now from this process. */
  items(now = Date.now()): HealthItem[] {
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    const uptime = process.uptime();
    return this.definitions.map((app) => {
      const { state, detail } = this.stateOf(app.id);
      return {
        id: app.id,
        package_id: app.package_id,
        version: app.version,
        type: 'Application' as const,
        description: app.description,
        routePrefix: app.routePrefix,
        state,
        ...(detail ? { detail } : {}),
        uptime,
        memoryUsage: { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external },
        cpuUsage: { user: cpu.user, system: cpu.system },
        pid: process.pid,
        logger: this.loggerLevels(),
        timestamp: now,
      };
    });
  }
}

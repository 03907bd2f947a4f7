// The adapter instances of one profile: its service configs (the store's `service_configs`),
// the packages found for their types, and a process per instance. Creating, editing, importing
// and deleting a service config, and starting or stopping an instance, go through here; the
// desired state (started or stopped) is kept in the profile's store.
import type { Store } from '../store/port';
import { builtInApplications } from '../applications/registry';
import type { DesiredStates } from '../applications/desired-state';
import { AdapterError, ConflictError } from './errors';
import { errorMessage } from '../errors';
export { ConflictError } from './errors';
import { discoverPackages, packageForType, type DiscoverPlaces } from './discover';
import type { AdapterManager, AdapterAnswer } from './manager';
import type { AdapterPackage } from './package';
import { checkShape, ConfigError, maskConfig, PropertySchemas, restoreConfig, stripId as withoutId, stripId, type ServiceConfig } from './service-config';
import { SIMULATED_ADAPTERS, simulatedPackage } from './simulated/instance';
import { simulationIssues, simulationOf } from './simulated/rules';
import type { CallRecorder } from './simulated/recordings';
import { secretValues } from '../secrets/classify';

export const SERVICE_CONFIGS = 'service_configs';
const APPLICATION_TYPES: ReadonlySet<string> = new Set(builtInApplications.map((a) => a.id));

export interface AdapterView {
  config: ServiceConfig;
  package?: { name: string; export: string; title: string; version: string; source: string; dir: string };
  problem?: string;
}

/** How secrets are kept at rest: sealed when the profile asks (`pathProps.encrypted`), clear otherwise. */
export interface SecretsAtRest {
  seal<T>(json: T): Promise<T>;
  /** Opens what `seal` sealed; throws naming the field when it cannot be read. */
  open<T>(name: string, json: T): Promise<T>;
}

const CLEAR: SecretsAtRest = { seal: async (json) => json, open: async (_name, json) => json };

export class AdapterInstances {
  private packages: AdapterPackage[] = [];
  private discoveryProblems: string[] = [];
  /** The problems the last discovery found (a rescan replaces them; the service configs' stay). */
  private packageProblems: string[] = [];
  private readonly secrets: SecretsAtRest;
  private readonly schemas = new PropertySchemas();

  constructor(
    readonly manager: AdapterManager,
    private readonly deps: { store: Store; desired: DesiredStates; places: DiscoverPlaces; secrets?: SecretsAtRest },
  ) {
    this.secrets = deps.secrets ?? CLEAR;
  }

  /** Whether jobs may call simulated instances (the profile decides; see core/profiles/runtime-config.ts). */
  simulationAllowed = true;
  /** Records real instances' calls when asked (core/adapters/simulated/recordings.ts). */
  recorder?: CallRecorder;
  private get configs() {
    return this.deps.store.collection(SERVICE_CONFIGS);
  }

  private get simulatedConfigs() { return this.deps.store.collection(SIMULATED_ADAPTERS); }

  /** Resolves once the service configs are read (changes wait for it). */
  private loaded: Promise<void> = Promise.resolve();

  /**
   * Finds the packages, reads the service configs and starts the instances not stopped by the
   * operator. A MongoDB that is slow or down must not hold the profile's opening: its service
   * configs are read in the background (the embedded store is local and quick, so it is awaited).
   */
  async open(): Promise<this> {
    const found = await discoverPackages(this.deps.places);
    this.packages = found.packages;
    this.discoveryProblems = [...found.problems];
    this.packageProblems = found.problems;
    this.loaded = this.load();
    if (this.deps.store.kind === 'embedded') await this.loaded;
    return this;
  }

  private async load(): Promise<void> {
    // The profile opens even when its store does not answer (MongoDB down): no instance then, and
    // the reason is listed with the packages' problems (the Adapters page shows it).
    let docs: Record<string, unknown>[];
    let stopped: Set<string>;
    try {
      // service_configs also keeps the service's applications' configs, not adapters; a simulated MOP (its own collection) is one.
      const configs = (await this.configs.find({})).filter((doc) => !(typeof doc.type === 'string' && APPLICATION_TYPES.has(doc.type)));
      docs = [...configs, ...(await this.simulatedConfigs.find({}))];
      stopped = await this.deps.desired.stopped('adapter');
    } catch (error) {
      this.discoveryProblems.push(`the service configs cannot be read from the store, so no adapter runs: ${errorMessage(error)}`);
      return;
    }
    const ids: string[] = [];
    for (const doc of docs) {
      let config: ServiceConfig;
      try {
        config = checkShape(stripId(doc), SERVICE_CONFIGS);
        config = { ...config, properties: await this.secrets.open(`adapter ${config.id}`, config.properties) };
      } catch (error) {
        this.discoveryProblems.push(`${SERVICE_CONFIGS} document ${String(doc._id)}: ${errorMessage(error)}`);
        continue;
      }
      this.register(config);
      if (!stopped.has(config.id)) ids.push(config.id);
    }
    this.manager.startAll(ids);
  }

  /**
   * Looks for packages again, as the service does when an adapter is installed into sdk_dir while it
   * runs: new packages are offered for new instances, and an instance that lacked its package gets it.
   */
  async rescan(): Promise<{ added: string[] }> {
    const before = new Set(this.packages.map((p) => p.name));
    const found = await discoverPackages(this.deps.places);
    this.packages = found.packages;
    this.discoveryProblems = [...found.problems, ...this.discoveryProblems.filter((p) => !this.packageProblems.includes(p))];
    this.packageProblems = found.problems;
    for (const name of this.manager.list()) {
      const known = this.manager.instance(name);
      if (known && !known.pkg) this.register(known.config);
    }
    return { added: found.packages.map((p) => p.name).filter((name) => !before.has(name)) };
  }

  private register(config: ServiceConfig) {
    const simulation = simulationOf(config);
    if (simulation) return this.manager.set(config, simulatedPackage(config, simulation));
    const pkg = packageForType(this.packages, config.type);
    const problem = pkg ? undefined : `no adapter package exports "${config.type}": install it in the profile's sdk_dir (${this.deps.places.sdkDir ?? 'not set'}) or ${this.deps.places.dataDirAdapters}`;
    this.manager.set(config, pkg, problem);
  }

  /** Instances whose type (the package's class, or its title) is `app`. */
  private ofType(app: string): string[] {
    return this.manager.list().filter((name) => {
      const instance = this.manager.instance(name);
      return !!instance && (instance.config.type === app || instance.pkg?.export === app || instance.pkg?.title === app);
    });
  }

  /**
   * The instance a workflow task means: `app` naming an instance, or `app` naming the adapter's
   * type (as the service's exports do, e.g. `Awsec2`) with the instance in the `adapter_id` input
   * (or the only instance of that type).
   */
  resolve(app: string, args: Record<string, unknown> = {}): string {
    if (this.manager.has(app)) return app;
    const candidates = this.ofType(app);
    const wanted = args.adapter_id;
    if (typeof wanted === 'string' && wanted !== '') {
      if (candidates.includes(wanted)) return wanted;
      throw new AdapterError('unknown-adapter', app, undefined, `no ${app} adapter named "${wanted}" (adapter_id); ${app} adapters: ${candidates.join(', ') || 'none'}`);
    }
    const [only] = candidates;
    if (candidates.length === 1 && only !== undefined) return only;
    if (candidates.length > 1) throw new AdapterError('unknown-adapter', app, undefined, `${candidates.length} ${app} adapters (${candidates.join(', ')}): say which in the task's adapter_id`);
    throw new AdapterError('unknown-adapter', app, undefined, `no adapter "${app}" (adapters: ${this.manager.list().join(', ') || 'none'})`);
  }

  /**
   * What a workflow task's `app` may name to reach an instance: each instance's name and the
   * adapter types it answers to (its config type, its package's class and title).
   */
  callable(): string[] {
    const names = new Set<string>();
    for (const name of this.manager.list()) {
      const instance = this.manager.instance(name);
      for (const n of [name, instance?.config.type, instance?.pkg?.export, instance?.pkg?.title]) if (n) names.add(n);
    }
    return [...names];
  }

  /** An instance name, or an adapter type with an instance or an installed package. */
  has(app: string): boolean {
    return this.manager.has(app) || this.ofType(app).length > 0 || this.packages.some((p) => !p.problem && (p.export === app || p.title === app));
  }

  /** The methods (pronghorn.json) of an instance or an adapter type; undefined when neither is known. */
  methods(app: string): string[] | undefined {
    const pkg = this.packageOf(app);
    if (pkg) return pkg.methods.map((m) => m.name);
    return this.manager.has(app) ? [] : undefined;
  }

  /** The inputs of a method that the package's pronghorn.json marks `required`, in call order. */
  requiredInputs(app: string, method: string): string[] {
    const found = this.packageOf(app)?.methods.find((m) => m.name === method);
    return (found?.input ?? []).filter((input) => input.required === true).map((input) => input.name);
  }

  packageList(): AdapterPackage[] {
    return this.packages;
  }

  problems(): string[] {
    return this.discoveryProblems;
  }

  /** The package of an instance, or of an adapter type. */
  packageOf(app: string): AdapterPackage | undefined {
    if (this.manager.has(app)) return this.manager.instance(app)?.pkg;
    const instance = this.ofType(app)[0];
    return instance ? this.manager.instance(instance)?.pkg : this.packages.find((p) => !p.problem && (p.export === app || p.title === app));
  }

  private require(name: string) {
    const known = this.manager.instance(name);
    if (!known) throw new AdapterError('unknown-adapter', name, undefined, `no adapter "${name}" (adapters: ${this.manager.list().join(', ') || 'none'})`);
    return known;
  }

  view(name: string): AdapterView {
    const { config, pkg, problem } = this.require(name);
    return {
      config: maskConfig(config, pkg),
      ...(pkg ? { package: { name: pkg.name, export: pkg.export, title: pkg.title, version: pkg.version, source: pkg.source, dir: pkg.dir } } : {}),
      ...(problem ? { problem } : {}),
    };
  }

  list(): AdapterView[] {
    return this.manager.list().map((name) => this.view(name));
  }

  private packageFor(config: ServiceConfig, at: string): AdapterPackage {
    const pkg = packageForType(this.packages, config.type);
    if (!pkg) {
      const types = this.packages.filter((p) => !p.problem).map((p) => p.export);
      throw new ConfigError(`${at}.type: no adapter package exports "${config.type}" (installed: ${types.join(', ') || 'none'})`, [
        { path: `${at}.type`, message: `no adapter package exports "${config.type}"` },
      ]);
    }
    return pkg;
  }

  /** Adds a service config (POST /adapters, or an import) and starts its instance. */
  async create(raw: unknown, at = 'body.properties'): Promise<AdapterView> {
    await this.loaded;
    const given = checkShape(raw, at);
    if (this.manager.has(given.id)) throw new ConflictError(`an adapter named "${given.id}" exists already; edit it with PUT /adapters/${given.id}/properties`);
    const pkg = this.packageFor(given, at);
    // A new instance has no stored secrets: a mask it carries stands for the package sample's value,
    // as the sample (masked by GET /adapter-packages/sample) filled the form it was sent from.
    const { value: config, dropped } = restoreConfig(given, this.schemas.sampleConfig(pkg, given.id), pkg);
    this.schemas.assertValidProperties(pkg, config, at);
    if (dropped.length) {
      throw new ConfigError(`${at}: ${dropped.join(', ')} carry the mask (********) and have no stored value: set them again`, dropped.map((p) => ({ path: `${at}.${p}`, message: 'masked secret with no stored value' })));
    }
    await this.configs.insertOne({ ...config, properties: await this.secrets.seal(config.properties) });
    await this.deps.desired.set('adapter', config.id, true);
    this.register(config);
    await this.manager.start(config.id);
    return this.view(config.id);
  }

  /** The service config of a new instance of a package, from its sampleProperties.json (not saved). */
  sample(packageName: string, id?: string): ServiceConfig {
    const pkg = this.packages.find((p) => p.name === packageName || p.export === packageName);
    if (!pkg) throw new AdapterError('unknown-adapter', packageName, undefined, `no adapter package "${packageName}" (packages: ${this.packages.map((p) => p.name).join(', ') || 'none'})`);
    return maskConfig(this.schemas.sampleConfig(pkg, id), pkg);
  }

  /**
   * Replaces an instance's properties (PUT /adapters/:name/properties). `given` is the properties
   * object, or a whole service config of the same name. A running instance restarts with them.
   */
  async update(name: string, given: unknown): Promise<AdapterView> {
    await this.loaded;
    const { config: stored } = this.require(name);
    const isWhole = isObject(given) && typeof given.type === 'string' && isObject(given.properties);
    const at = isWhole ? 'body.properties' : 'body';
    const next = checkShape(isWhole ? given : { ...stored, properties: given }, at);
    if (next.id !== name) throw new ConfigError(`${at}.id: "${next.id}" is not the adapter's name "${name}"`, [{ path: `${at}.id`, message: `expected "${name}"` }]);
    if (simulationOf(stored)) return this.saveSimulated(isWhole ? next : { ...next, simulation: stored.simulation }, at);
    const pkg = this.packageFor(next, at);
    const { value: config } = restoreConfig(next, stored, pkg);
    this.schemas.assertValidProperties(pkg, config, at);
    // Replaced whole, so fields the operator removed are gone from the stored document too.
    await this.configs.deleteMany({ id: name });
    await this.configs.insertOne({ ...withoutId(config), properties: await this.secrets.seal(config.properties) });
    const wasRunning = (await this.manager.item(name)).state === 'RUNNING';
    this.register(config);
    if (wasRunning) await this.manager.restart(name);
    return this.view(name);
  }

  /** Saves and starts a simulated instance (POST /adapters/simulate; its rules edited with PUT /adapters/:name/properties). */
  async saveSimulated(config: ServiceConfig, at = 'body.properties'): Promise<AdapterView> {
    await this.loaded;
    const issues = simulationIssues(config.simulation, `${at}.simulation`);
    if (issues.length) throw new ConfigError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    const known = this.manager.instance(config.id);
    if (known && !simulationOf(known.config)) throw new ConflictError(`a real adapter named "${config.id}" exists: it is not replaced by a simulated one`);
    await this.simulatedConfigs.deleteMany({ id: config.id });
    await this.simulatedConfigs.insertOne(withoutId(config));
    this.register(config);
    await this.deps.desired.set('adapter', config.id, true);
    await this.manager.start(config.id);
    return this.view(config.id);
  }

  async remove(name: string): Promise<void> {
    await this.loaded;
    this.require(name);
    await this.manager.remove(name);
    await this.simulatedConfigs.deleteMany({ id: name });
    await this.configs.deleteMany({ id: name });
    await this.deps.desired.forget('adapter', name);
  }

  async start(name: string) {
    this.require(name);
    await this.deps.desired.set('adapter', name, true);
    await this.manager.start(name);
  }

  async stop(name: string) {
    this.require(name);
    await this.deps.desired.set('adapter', name, false);
    await this.manager.stop(name);
  }

  async restart(name: string) {
    this.require(name);
    await this.deps.desired.set('adapter', name, true);
    await this.manager.restart(name);
  }

  /** The workflow engine's entry: a method of an instance (or of the type's instance `adapter_id` names) with named inputs. */
  async call(app: string, method: string, args: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<AdapterAnswer> {
    const id = this.resolve(app, args);
    const known = this.manager.instance(id);
    const stub = known?.config.properties.stub === true; // a package in its stub mode (as Simulate leaves one) answers mock data: simulated for jobs
    if (!this.simulationAllowed && known && (simulationOf(known.config) || stub))
      throw new AdapterError('failed', id, method, `adapter "${id}" is ${stub ? `in its package's stub mode ("stub": true)` : 'simulated'} and this profile does not let jobs use simulated adapters (simulationProps.allowJobs); method "${method}" was not called`);
    const started = Date.now();
    const answer = await this.manager.call(id, method, args, options);
    if (known && this.recorder?.isRecording(id)) await this.recorder.note(id, { method, args, ok: answer.ok, answer: answer.ok ? answer.value : answer.error, durationMs: Date.now() - started, output: answer.output }, secretValues(known.config.properties));
    return stub && answer.simulated === undefined ? { ...answer, simulated: id, outputDeclared: true } : answer;
  }

  close() {
    return this.manager.close();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

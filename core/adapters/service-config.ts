// Service configs as the service stores them in `service_configs` and exports them:
// `{ id, type, properties, brokers, groups }` (with `loggerProps` where set; other fields kept).
// `type` names the class a package exports; `properties` are validated against the package's
// propertiesSchema.json with ajv as the service's adapters do (schema defaults applied, union
// types allowed), each problem naming the property path. Secrets (the package's
// propertiesDecorators.json pointers, and password/token/secret keys anywhere) are masked.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SECRET_MASK } from '../contract/profiles';
import { InstanceName } from '../contract/adapters';
import { maskSecrets, restoreMasked } from '../profiles/secrets';
import type { AdapterPackage } from './package';
import { ConsoleError, errorMessage } from '../errors';

export interface ServiceConfig {
  id: string;
  type: string;
  properties: Record<string, unknown>;
  brokers: unknown[];
  groups: unknown[];
  loggerProps?: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface Issue {
  path: string;
  message: string;
}

/** A service config or its properties that cannot be accepted; `issues` name each field. */
export class ConfigError extends ConsoleError {
  constructor(
    message: string,
    readonly issues: Issue[],
  ) {
    super('bad_input', message, { issues });
    this.name = 'ConfigError';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the service's shape (`at` prefixes the paths, e.g. `body.properties`) and fills brokers/groups. */
export function checkShape(raw: unknown, at: string): ServiceConfig {
  const issues: Issue[] = [];
  if (!isObject(raw)) throw new ConfigError(`${at}: expected a service config { id, type, properties, brokers, groups }`, [{ path: at, message: 'expected an object' }]);
  const name = InstanceName.safeParse(raw.id);
  if (!name.success) issues.push({ path: `${at}.id`, message: `the instance name ${name.error.issues[0]?.message ?? 'is not valid'}` });
  if (typeof raw.type !== 'string' || raw.type === '') issues.push({ path: `${at}.type`, message: "expected the adapter's class name (pronghorn.json export)" });
  if (raw.properties !== undefined && !isObject(raw.properties)) issues.push({ path: `${at}.properties`, message: 'expected an object' });
  for (const key of ['brokers', 'groups'] as const) if (raw[key] !== undefined && !Array.isArray(raw[key])) issues.push({ path: `${at}.${key}`, message: 'expected an array' });
  if (raw.loggerProps !== undefined && !isObject(raw.loggerProps)) issues.push({ path: `${at}.loggerProps`, message: 'expected an object' });
  if (issues.length || typeof raw.id !== 'string' || typeof raw.type !== 'string') throw new ConfigError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
  return { ...raw, id: raw.id, type: raw.type, properties: isObject(raw.properties) ? raw.properties : {}, brokers: Array.isArray(raw.brokers) ? raw.brokers : [], groups: Array.isArray(raw.groups) ? raw.groups : [] };
}

function issueOf(error: ErrorObject, at: string): Issue {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  const allowed = error.keyword === 'enum' ? `: ${JSON.stringify(error.params.allowedValues)}` : '';
  return { path: [at, ...segments].join('.'), message: `${error.message ?? 'is not valid'}${allowed}` };
}

/**
 * The compiled propertiesSchema.json of each adapter package: compiled once per package
 * object, kept by the adapter instances of a profile (instances.ts).
 */
export class PropertySchemas {
  private readonly validators = new WeakMap<AdapterPackage, ValidateFunction | Error>();

  private validatorOf(pkg: AdapterPackage): ValidateFunction | undefined {
    if (!pkg.propertiesSchema) return undefined;
    let known = this.validators.get(pkg);
    if (!known) {
      try {
        // Formats (uri, ipv4, ...) are checked as real packages' schemas expect; unknown ones are let through.
        const ajv = new Ajv({ strictSchema: false, allowUnionTypes: true, allErrors: true, useDefaults: true });
        addFormats(ajv);
        known = ajv.compile(pkg.propertiesSchema);
      } catch (error) {
        known = new Error(`${pkg.dir}/propertiesSchema.json cannot be compiled: ${errorMessage(error)}`);
      }
      this.validators.set(pkg, known);
    }
    if (known instanceof Error) throw new ConfigError(known.message, [{ path: 'propertiesSchema.json', message: known.message }]);
    return known;
  }

  /** The properties' problems against the package's propertiesSchema.json (none when it has none). */
  propertyIssues(pkg: AdapterPackage, properties: Record<string, unknown>, at = 'properties'): Issue[] {
    const validate = this.validatorOf(pkg);
    if (!validate) return [];
    // Defaults are applied to a copy, as the adapter does when it starts; the stored properties stay as given.
    if (validate(structuredClone(properties))) return [];
    return (validate.errors ?? []).map((e) => issueOf(e, at));
  }

  assertValidProperties(pkg: AdapterPackage, config: ServiceConfig, at: string) {
    const issues = this.propertyIssues(pkg, config.properties, `${at}.properties`);
    if (issues.length) throw new ConfigError(`service config "${config.id}" does not match ${pkg.name}'s propertiesSchema.json: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
  }

  /** A new instance's service config: the package's sampleProperties.json, else its schema's defaults. */
  sampleConfig(pkg: AdapterPackage, id?: string): ServiceConfig {
    const sample = pkg.sampleProperties ? structuredClone(pkg.sampleProperties) : {};
    const properties = isObject(sample.properties) ? sample.properties : {};
    if (!pkg.sampleProperties && pkg.propertiesSchema) this.validatorOf(pkg)?.(properties);
    return {
      ...sample,
      id: id ?? (typeof sample.id === 'string' ? sample.id : pkg.export),
      type: pkg.export,
      properties,
      brokers: Array.isArray(sample.brokers) ? sample.brokers : [],
      groups: Array.isArray(sample.groups) ? sample.groups : [],
    };
  }
}

const pointerPath = (pointer: string) => pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function walk(node: unknown, segments: string[], visit: (parent: Record<string, unknown>, key: string) => void) {
  const [head, ...rest] = segments;
  if (!isObject(node) || head === undefined) return;
  if (rest.length === 0) visit(node, head);
  else walk(node[head], rest, visit);
}

/** A copy for the API: every secret replaced by the mask. */
export function maskConfig(config: ServiceConfig, pkg: AdapterPackage | undefined): ServiceConfig {
  const { masked } = maskSecrets(config);
  for (const pointer of pkg?.secretPointers ?? []) {
    walk(masked.properties, pointerPath(pointer), (parent, key) => {
      if (typeof parent[key] === 'string' && parent[key] !== '') parent[key] = SECRET_MASK;
    });
  }
  return masked;
}

/** Puts the stored secrets back wherever the incoming config carries the mask; reports masks with nothing behind them. */
export function restoreConfig(incoming: ServiceConfig, stored: ServiceConfig | undefined, pkg: AdapterPackage | undefined): { value: ServiceConfig; dropped: string[] } {
  const restored = restoreMasked(incoming, stored ?? {});
  const dropped = [...restored.dropped];
  const value = restored.value;
  for (const pointer of pkg?.secretPointers ?? []) {
    const segments = pointerPath(pointer);
    walk(value.properties, segments, (parent, key) => {
      if (parent[key] !== SECRET_MASK) return;
      let previous: unknown;
      walk(stored?.properties, segments, (p, k) => (previous = p[k]));
      if (typeof previous === 'string' && previous !== SECRET_MASK) parent[key] = previous;
      else {
        delete parent[key];
        dropped.push(['properties', ...segments].join('.'));
      }
    });
  }
  return { value, dropped };
}

/** A stored document without the store's `_id` (a service config as the service exports it). */
export function stripId<T extends Record<string, unknown>>(doc: T): Omit<T, '_id'> {
  const { _id, ...rest } = doc;
  void _id;
  return rest;
}

// Operations Manager automations and their triggers: stored, listed, created, changed, deleted,
// exported and imported in the service's shapes. An automation starts a workflow (its
// component, by `componentId` or `componentName`); its triggers are documents of their own
// naming it by `actionId`. Running a trigger is run.ts.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Automation, Trigger, type AutomationExport, type ListQuery } from '../contract/automations';
import { ConsoleError, errorMessage, isRefusal } from '../errors';
import type { Collection } from '../store/port';
import { fromStored, isObject, listPage, newId, shaped, toStored, type Obj } from './documents';
import { runAtOrAfter, scheduleOf } from './schedule';

export interface WorkflowRef {
  _id?: string;
  name: string;
}

/** What the automations need of the rest of the console, each a narrow service from the host. */
export interface AutomationsDeps {
  automations(): Collection;
  triggers(): Collection;
  /** A stored workflow by its name or by its `_id`. */
  workflow(ref: { name?: string; id?: string }): Promise<WorkflowRef | null>;
  /** Whether a transformation (JST) with this `_id` is stored. */
  hasTransformation(id: string): Promise<boolean>;
  /** Who makes a change (createdBy, lastUpdatedBy). */
  user?(): string;
  now?(): Date;
}

const badInput = (path: string, message: string) => new ConsoleError('bad_input', `${path}: ${message}`, { issues: [{ path, message }] });

/** A JSON schema compiler as the service checks trigger bodies (formats such as `ipv4` known). */
export function schemaCompiler() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

export function createAutomationsService(deps: AutomationsDeps) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const user = () => deps.user?.() ?? 'admin@pronghorn';

  async function allAutomations(): Promise<Automation[]> {
    const stored = await deps.automations().find({});
    // The console's earlier imports kept an automation as exported, its triggers inline: stored now as the service keeps them.
    const inline = stored.filter((d) => Array.isArray(d.triggers));
    for (const doc of inline) await importOne(fromStored<Obj>(doc));
    const all = inline.length ? await deps.automations().find({}) : stored;
    return all.map((d) => fromStored<Automation>(d));
  }
  async function allTriggers(filter: Obj = {}): Promise<Trigger[]> {
    return (await deps.triggers().find(filter)).map((d) => fromStored<Trigger>(d));
  }

  async function requireAutomation(id: string, path?: string): Promise<Automation> {
    const doc = await deps.automations().findOne({ _id: id });
    if (!doc) {
      if (path) throw badInput(path, `no automation with _id ${id}`);
      throw new ConsoleError('not_found', `no automation with _id ${id}`, { id });
    }
    return fromStored<Automation>(doc);
  }
  async function requireTrigger(id: string): Promise<Trigger> {
    const doc = await deps.triggers().findOne({ _id: id });
    if (!doc) throw new ConsoleError('not_found', `no trigger with _id ${id}`, { id });
    return fromStored<Trigger>(doc);
  }

  /** The component fields of a new or changed automation: the workflow named must be stored; both fields are kept filled. */
  async function component(fields: Obj, strict: boolean): Promise<{ fields: Obj; warning?: string }> {
    const name = typeof fields.componentName === 'string' && fields.componentName ? fields.componentName : undefined;
    const id = typeof fields.componentId === 'string' && fields.componentId ? fields.componentId : undefined;
    if (!name && !id) return { fields };
    const found = await deps.workflow(name ? { name } : { id });
    if (!found) {
      const path = name ? 'body.componentName' : 'body.componentId';
      const message = name ? `no workflow named "${name}" is stored` : `no workflow with _id ${id} is stored`;
      if (strict) throw badInput(path, `${message}: import or create it first`);
      return { fields, warning: `${message} yet: the automation cannot start a job until it is` };
    }
    return { fields: { ...fields, componentType: 'workflows', componentName: found.name, ...(found._id ? { componentId: found._id } : {}) } };
  }

  async function uniqueName(name: string, except?: string) {
    const same = await deps.automations().findOne({ name });
    if (same && same._id !== except) throw new ConsoleError('conflict', `an automation named "${name}" exists already (_id ${String(same._id)})`, { issues: [{ path: 'body.name', message: 'already taken' }] });
  }

  /** The checks of a trigger's fields before it is stored, each naming its field. */
  async function checkTrigger(trigger: Obj, except?: string) {
    if (trigger.type === 'endpoint') {
      if (typeof trigger.routeName !== 'string' || !trigger.routeName) throw badInput('body.routeName', 'an endpoint trigger needs a routeName');
      const same = await deps.triggers().findOne({ type: 'endpoint', routeName: trigger.routeName });
      if (same && same._id !== except) {
        throw new ConsoleError('conflict', `routeName "${trigger.routeName}" is taken by trigger "${String(same.name)}" (_id ${String(same._id)})`, { issues: [{ path: 'body.routeName', message: 'already taken' }] });
      }
    }
    if (isObject(trigger.schema)) {
      try {
        // A compiler of its own: a schema's `$id` is registered once per compiler.
        schemaCompiler().compile(trigger.schema);
      } catch (error) {
        throw badInput('body.schema', `not a JSON schema the console can check bodies with: ${errorMessage(error)}`);
      }
    }
    if (typeof trigger.jst === 'string' && trigger.jst && !(await deps.hasTransformation(trigger.jst))) {
      throw badInput('body.jst', `no transformation with _id ${trigger.jst} is stored`);
    }
  }

  async function createTrigger(body: Obj): Promise<Trigger> {
    await requireAutomation(String(body.actionId), 'body.actionId');
    const stamp = now();
    const trigger: Obj = {
      actionType: 'automations',
      enabled: true,
      description: '',
      ...(body.type === 'endpoint' ? { verb: 'POST', schema: null, jst: null } : {}),
      ...body,
      _id: newId(),
      created: stamp,
      createdBy: user(),
      lastUpdated: stamp,
      lastUpdatedBy: user(),
    };
    await checkTrigger(trigger);
    if (trigger.type === 'schedule') trigger.nextRunAt = runAtOrAfter(scheduleOf(trigger), Date.now());
    const checked = shaped(Trigger, trigger, 'body');
    await deps.triggers().insertOne(toStored(checked));
    return checked;
  }

  /** Stores one exported automation with its triggers (the same _id or name replaced); why not, when refused. */
  async function importOne(raw: Obj): Promise<{ automation: Automation; replaced: boolean; warnings: string[] }> {
    if (typeof raw.name !== 'string' || !raw.name.trim()) throw badInput('name', 'an automation needs a name');
    const { triggers: rawTriggers, ...rest } = raw;
    const triggers = Array.isArray(rawTriggers) ? rawTriggers.filter(isObject) : [];
    const warnings: string[] = [];
    const { fields, warning } = await component(rest, false);
    if (warning) warnings.push(warning);
    const existing = (typeof raw._id === 'string' && (await deps.automations().findOne({ _id: raw._id }))) || (await deps.automations().findOne({ name: raw.name }));
    const id = existing ? String(existing._id) : typeof raw._id === 'string' && raw._id ? raw._id : newId();
    const stamp = now();
    const automation = shaped(Automation, { description: '', componentType: 'workflows', gbac: { read: [], write: [] }, created: stamp, createdBy: user(), lastUpdated: stamp, lastUpdatedBy: user(), ...fields, _id: id }, '');
    if (existing) {
      await deps.automations().deleteOne({ _id: id });
      await deps.triggers().deleteMany({ actionId: id });
    }
    await deps.automations().insertOne(toStored(automation));
    for (const [index, t] of triggers.entries()) {
      const trigger: Obj = { actionType: 'automations', enabled: true, ...t, actionId: id, _id: typeof t._id === 'string' && t._id ? t._id : newId() };
      if (typeof trigger.name !== 'string' || !trigger.name) trigger.name = `trigger ${index + 1}`;
      try {
        if (await deps.triggers().findOne({ _id: trigger._id })) trigger._id = newId();
        await checkTrigger(trigger);
        await deps.triggers().insertOne(toStored(trigger));
      } catch (error) {
        if (!(error instanceof ConsoleError) || !isRefusal(error.code)) throw error;
        warnings.push(`trigger "${String(trigger.name)}" left out: ${error.message.replace(/^body\./, '')}`);
      }
    }
    return { automation, replaced: Boolean(existing), warnings };
  }

  return {
    async list(query: ListQuery) {
      return listPage(await allAutomations(), query);
    },
    get: (id: string) => requireAutomation(id),
    async create(body: Obj): Promise<Automation> {
      await uniqueName(String(body.name));
      const { fields } = await component(body, true);
      const stamp = now();
      const automation = shaped(Automation, { description: '', componentType: 'workflows', gbac: { read: [], write: [] }, ...fields, _id: newId(), created: stamp, createdBy: user(), lastUpdated: stamp, lastUpdatedBy: user() }, 'body');
      await deps.automations().insertOne(toStored(automation));
      return automation;
    },
    async update(id: string, body: Obj): Promise<Automation> {
      const current = await requireAutomation(id);
      if (typeof body.name === 'string') await uniqueName(body.name, id);
      const changesComponent = body.componentName !== undefined || body.componentId !== undefined;
      const { fields } = changesComponent ? await component(body.componentName !== undefined ? { ...body, componentId: undefined } : body, true) : { fields: body };
      const { _id: _ignored, created: _c, createdBy: _cb, ...changes } = fields;
      const next: Obj = { ...current, ...changes, _id: id, lastUpdated: now(), lastUpdatedBy: user() };
      for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
      const checked = shaped(Automation, next, 'body');
      await deps.automations().deleteOne({ _id: id });
      await deps.automations().insertOne(toStored(checked));
      return checked;
    },
    async remove(id: string) {
      await requireAutomation(id);
      await deps.automations().deleteOne({ _id: id });
      const triggersDeleted = await deps.triggers().deleteMany({ actionId: id });
      return { _id: id, triggersDeleted };
    },
    async exportOne(id: string): Promise<AutomationExport> {
      const { componentId: _drop, ...automation } = await requireAutomation(id);
      const triggers = (await allTriggers({ actionId: id })).sort((a, b) => a.name.localeCompare(b.name));
      return { ...automation, triggers };
    },
    importOne,

    async listTriggers(query: ListQuery & { actionId?: string }) {
      return listPage(await allTriggers(query.actionId !== undefined ? { actionId: query.actionId } : {}), query);
    },
    /** The triggers of one automation. */
    triggersOf: (automationId: string) => allTriggers({ actionId: automationId }),
    getTrigger: requireTrigger,
    createTrigger,
    async updateTrigger(id: string, body: Obj): Promise<Trigger> {
      const current = await requireTrigger(id);
      if (typeof body.actionId === 'string' && body.actionId !== current.actionId) await requireAutomation(body.actionId, 'body.actionId');
      const { _id: _ignored, created: _c, createdBy: _cb, ...changes } = body;
      const next: Obj = { ...current, ...changes, _id: id, lastUpdated: now(), lastUpdatedBy: user() };
      await checkTrigger(next, id);
      // A schedule changed, or switched on again, waits for its next run from now (not for runs passed meanwhile).
      const rescheduled = ['type', 'firstRunAt', 'repeatInterval', 'processMissedRuns'].some((field) => field in changes) || (changes.enabled === true && !current.enabled);
      if (next.type === 'schedule' && rescheduled) next.nextRunAt = runAtOrAfter(scheduleOf(next), Date.now());
      const checked = shaped(Trigger, next, 'body');
      await deps.triggers().deleteOne({ _id: id });
      await deps.triggers().insertOne(toStored(checked));
      return checked;
    },
    async removeTrigger(id: string) {
      await requireTrigger(id);
      await deps.triggers().deleteOne({ _id: id });
      return { _id: id };
    },
    requireAutomation,
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;

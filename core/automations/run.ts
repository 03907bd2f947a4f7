// Running an automation through one of its triggers. An endpoint trigger, called at
// `POST /operations-manager/triggers/endpoint/:routeName`, checks the body against the
// trigger's `schema` (a 400 naming each field that does not fit), applies the trigger's
// JST when it has one (the body's fields are the JST's incoming values, its outgoing values
// the job's variables) and starts the automation's workflow with the result as the job's
// variables. A manual trigger starts it with the form's values (wrapped in `formData`, as
// 2022.1 does, unless the trigger says `legacyWrapper: false`). The job runs as any other.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Automation, Trigger } from '../contract/automations';
import { ConsoleError, errorMessage } from '../errors';
import { fromStored, isObject, type Obj } from './documents';
import { schemaCompiler, type AutomationsDeps, type AutomationsService } from './service';
import { dueRun, runAtOrAfter, scheduleOf } from './schedule';

export interface StartedJob {
  _id: string;
  name: string;
  status: string;
  [field: string]: unknown;
}

export interface RunDeps extends Pick<AutomationsDeps, 'triggers' | 'workflow'> {
  /** Runs a stored JST by `_id` on incoming values; null when it is not stored. */
  transform(id: string, incoming: Obj): Promise<{ outgoing: Obj } | null>;
  /** Starts a job of a workflow as the jobs capability does (its checks, refusals and worker included). */
  startJob(workflow: string, options: { description: string; variables: Obj }): Promise<StartedJob>;
}

/** Where in the body a schema error is: `body.device.name`, a missing property named. */
function issueOf(error: ErrorObject): { path: string; message: string } {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') parts.push(error.params.missingProperty);
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') parts.push(error.params.additionalProperty);
  return { path: ['body', ...parts].join('.'), message: error.message ?? error.keyword };
}

/** What became of one due schedule trigger: its job, a run missed and skipped (`processMissedRuns: none`), or why it could not start. */
export interface ScheduledRun {
  triggerId: string;
  trigger: string;
  due?: number;
  jobId?: string;
  skipped?: number;
  error?: string;
}

/** A manual or schedule trigger's variables: its form data and the values given, wrapped in `formData` unless `legacyWrapper` is false (2022.1's wrapper). */
function formVariables(trigger: Trigger, given: Obj | undefined): Obj {
  const values = { ...(isObject(trigger.formData) ? trigger.formData : {}), ...(given ?? {}) };
  return trigger.legacyWrapper === false ? values : { formData: values };
}

export function createTriggerRunner(deps: RunDeps, automations: Pick<AutomationsService, 'requireAutomation'>) {
  // Each stored version of a trigger's schema compiled once (kept per service: a profile's runner, its cache).
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (trigger: Trigger, schema: Obj): ValidateFunction => {
    const key = `${trigger._id}\u0000${trigger.lastUpdated ?? ''}\u0000${JSON.stringify(schema)}`;
    let validate = validators.get(key);
    if (!validate) {
      const oldest = validators.keys().next();
      if (validators.size >= 200 && !oldest.done) validators.delete(oldest.value);
      try {
        validate = schemaCompiler().compile(schema);
      } catch (error) {
        throw new ConsoleError('conflict', `trigger "${trigger.name}" has a schema the console cannot check bodies with (${errorMessage(error)}): change the trigger's schema`);
      }
      validators.set(key, validate);
    }
    return validate;
  };

  async function workflowOf(automation: Automation): Promise<string> {
    const name = typeof automation.componentName === 'string' && automation.componentName ? automation.componentName : undefined;
    const id = typeof automation.componentId === 'string' && automation.componentId ? automation.componentId : undefined;
    const found = name || id ? await deps.workflow(name ? { name } : { id }) : null;
    if (!found) {
      const named = name ? `workflow "${name}"` : id ? `workflow ${id}` : 'no workflow';
      throw new ConsoleError('conflict', `automation "${automation.name}" starts ${named}, which is not stored: import or create the workflow first`, { automation: automation._id });
    }
    return found.name;
  }

  async function start(trigger: Trigger, variables: Obj): Promise<{ message: string; data: StartedJob; metadata: Obj }> {
    const automation = await automations.requireAutomation(trigger.actionId).catch((error: unknown) => {
      if (error instanceof ConsoleError && error.code === 'not_found') throw new ConsoleError('conflict', `trigger "${trigger.name}" names automation ${trigger.actionId}, which is not stored`);
      throw error;
    });
    const workflow = await workflowOf(automation);
    // The trigger ran: when, as the service keeps it (its clients show it as the automation's last run).
    await deps.triggers().updateOne({ _id: trigger._id }, { $set: { lastExecuted: Date.now() } });
    const description = `Operations Manager: automation "${automation.name}", ${trigger.type} trigger "${trigger.name}"`;
    const job = await deps.startJob(workflow, { description, variables });
    return { message: `Successfully started job "${job.name}" of automation "${automation.name}"`, data: job, metadata: {} };
  }

  return {
    /** An endpoint trigger called the way a webhook calls it. */
    async runEndpoint(routeName: string, verb: string, body: unknown) {
      const stored = await deps.triggers().findOne({ type: 'endpoint', routeName });
      if (!stored) throw new ConsoleError('not_found', `no endpoint trigger with routeName "${routeName}"`, { routeName });
      const trigger = fromStored<Trigger>(stored);
      const declared = (trigger.verb ?? 'POST').toUpperCase();
      if (declared !== verb) throw new ConsoleError('method_not_allowed', `endpoint trigger "${trigger.name}" is called with ${declared}, not ${verb}`, { routeName });
      if (!trigger.enabled) throw new ConsoleError('conflict', `endpoint trigger "${trigger.name}" is disabled: enable it to run its automation`, { routeName });
      const given = body === undefined || body === null ? {} : body;
      if (isObject(trigger.schema)) {
        const validate = validatorOf(trigger, trigger.schema);
        if (!validate(given)) {
          const issues = (validate.errors ?? []).map(issueOf);
          throw new ConsoleError('bad_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
        }
      }
      if (!isObject(given)) throw new ConsoleError('bad_input', 'body: must be a JSON object (its fields become the job variables)', { issues: [{ path: 'body', message: 'must be a JSON object' }] });
      let variables: Obj = given;
      if (typeof trigger.jst === 'string' && trigger.jst) {
        const result = await deps.transform(trigger.jst, given);
        if (!result) throw new ConsoleError('conflict', `endpoint trigger "${trigger.name}" applies transformation ${trigger.jst}, which is not stored: import it first`, { routeName });
        variables = result.outgoing;
      }
      return start(trigger, variables);
    },

    /** A manual trigger run from the console's Automations page (or by a client). */
    async runManual(id: string, formData: Obj | undefined) {
      const stored = await deps.triggers().findOne({ _id: id });
      if (!stored) throw new ConsoleError('not_found', `no trigger with _id ${id}`, { id });
      const trigger = fromStored<Trigger>(stored);
      if (trigger.type !== 'manual') throw new ConsoleError('conflict', `trigger "${trigger.name}" is a ${trigger.type} trigger, not a manual one`, { id });
      if (!trigger.enabled) throw new ConsoleError('conflict', `manual trigger "${trigger.name}" is disabled: enable it to run its automation`, { id });
      return start(trigger, formVariables(trigger, formData));
    },

    /**
     * Fires the schedule triggers due at `now`, each run claimed by moving its `nextRunAt` on with a
     * compare-and-set (a second console on the same store finds it moved and fires nothing), then
     * started as a manual trigger's run is, with the trigger's form data. A trigger with no `nextRunAt`
     * (imported, or stored before the console fired schedules) is given its next run, firing nothing.
     */
    async fireDueSchedules(now: number): Promise<ScheduledRun[]> {
      const runs: ScheduledRun[] = [];
      for (const doc of await deps.triggers().find({ type: 'schedule', enabled: true })) {
        const trigger = fromStored<Trigger>(doc);
        const named = { triggerId: trigger._id, trigger: trigger.name };
        let schedule;
        try {
          schedule = scheduleOf(trigger, `trigger ${trigger._id}`);
        } catch (error) {
          runs.push({ ...named, error: errorMessage(error) });
          continue;
        }
        if (trigger.nextRunAt === null) continue; // ran once, as it was set to
        if (trigger.nextRunAt === undefined) {
          await deps.triggers().updateOne({ _id: trigger._id, nextRunAt: { $exists: false } }, { $set: { nextRunAt: runAtOrAfter(schedule, now) } });
          continue;
        }
        const due = trigger.nextRunAt;
        if (due > now) continue;
        const { fire, next } = dueRun(schedule, due, now);
        const claimed = await deps.triggers().updateOne({ _id: trigger._id, nextRunAt: due }, { $set: { nextRunAt: next } });
        if (claimed.modified !== 1) continue;
        if (!fire) {
          runs.push({ ...named, skipped: due });
          continue;
        }
        try {
          const started = await start(trigger, formVariables(trigger, undefined));
          runs.push({ ...named, jobId: started.data._id, due });
        } catch (error) {
          runs.push({ ...named, due, error: errorMessage(error) });
        }
      }
      return runs;
    },
  };
}

export type TriggerRunner = ReturnType<typeof createTriggerRunner>;

// Operations Manager automations and their triggers, in the service's shapes: an automation
// (`name`, `description`, `componentType` "workflows", `componentId` / `componentName`, `gbac`)
// and its triggers (`type` endpoint | manual | schedule | eventSystem, `enabled`, `actionType`
// "automations", `actionId`, and per type `verb`, `routeName`, `schema`, `jst`, `formId`, ...).
// Every answer is the service's `{ message, data, metadata }`; unknown fields are kept.
// Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { DocumentName, RecordId } from './ids';
import { ListFilters, SortOrder } from './list-query';
import { JOB_START_LIMIT } from './jobs';

export const TRIGGER_TYPES = ['endpoint', 'manual', 'schedule', 'eventSystem'] as const;
export const TriggerType = z.enum(TRIGGER_TYPES);
export type TriggerType = z.infer<typeof TriggerType>;

const Gbac = z.looseObject({ read: z.array(z.unknown()), write: z.array(z.unknown()) });
/** A JSON schema, or null (no check). */
const Schema = z.record(z.string(), z.unknown()).nullable();

/** A trigger as stored and answered: every field kept. */
export const Trigger = z.looseObject({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  type: TriggerType,
  enabled: z.boolean(),
  actionType: z.string().optional(),
  actionId: z.string(),
  verb: z.string().optional(),
  routeName: z.string().optional(),
  schema: Schema.optional(),
  jst: z.string().nullable().optional(),
  formId: z.string().nullable().optional(),
  formData: z.record(z.string(), z.unknown()).optional(),
  legacyWrapper: z.boolean().optional(),
  /** When the trigger last ran its automation (epoch ms), as the service keeps it; absent before it first ran. */
  lastExecuted: z.number().nullable().optional(),
  /** A schedule trigger's next run (epoch ms), as the service answers it; null once a run-once schedule ran. */
  nextRunAt: z.number().nullable().optional(),
  created: z.string().optional(),
  lastUpdated: z.string().optional(),
});
export type Trigger = z.infer<typeof Trigger>;

/** An automation as stored and answered (its triggers are documents of their own, by `actionId`). */
export const Automation = z.looseObject({
  _id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  componentType: z.string().nullable().optional(),
  componentId: z.string().nullable().optional(),
  componentName: z.string().nullable().optional(),
  gbac: Gbac.optional(),
  created: z.string().optional(),
  createdBy: z.unknown().optional(),
  lastUpdated: z.string().optional(),
  lastUpdatedBy: z.unknown().optional(),
});
export type Automation = z.infer<typeof Automation>;

/** An export: the automation with its component named (`componentName`) and its triggers inline. */
export const AutomationExport = Automation.extend({ triggers: z.array(Trigger) });
export type AutomationExport = z.infer<typeof AutomationExport>;

const RouteName = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9_-]{1,128}$/, "must be 1 to 128 letters, digits, '_' or '-' (it is the last part of /operations-manager/triggers/endpoint/:routeName)")
  // As every path parameter of the console: never a name Windows reserves.
  .refine((v) => !/^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(v), 'must not be a name reserved by Windows (CON, NUL, COM1, ...)');

const AutomationFields = {
  description: z.string().optional(),
  componentType: z.enum(['workflows'], { error: 'must be "workflows" (the console runs workflows)' }).nullable().optional(),
  componentId: z.string().nullable().optional(),
  componentName: DocumentName.nullable().optional(),
  gbac: Gbac.optional(),
};

export const AutomationCreate = z.looseObject({ name: DocumentName, ...AutomationFields });
export const AutomationUpdate = z.looseObject({ name: DocumentName.optional(), ...AutomationFields });

const TriggerFields = {
  // The vendor's MCP server sends null when it has none to give.
  description: z.string().nullable().optional(),
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
  actionType: z.enum(['automations']).optional(),
  actionId: RecordId.optional(),
  verb: z.enum(['POST', 'GET', 'PUT', 'PATCH', 'DELETE']).optional(),
  routeName: RouteName.optional(),
  schema: Schema.optional(),
  jst: z.string().nullable().optional(),
  formId: z.string().nullable().optional(),
  formData: z.record(z.string(), z.unknown()).optional(),
  legacyWrapper: z.boolean().optional(),
};

export const TriggerCreate = z.looseObject({ name: z.string().trim().min(1, 'must not be empty'), type: TriggerType, ...TriggerFields, actionId: RecordId });
export const TriggerUpdate = z.looseObject({ name: z.string().trim().min(1, 'must not be empty').optional(), type: TriggerType.optional(), ...TriggerFields });

const Metadata = z.looseObject({});
const ListMetadata = z.looseObject({ skip: z.number(), limit: z.number(), total: z.number() });
const answer = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data, metadata: Metadata });

/**
 * The service's list query: `equals` / `contains` / `starts-with` on the field named by `equalsField` / ...,
 * or in its bracket form (`equals[name]=X`, `contains[description]=Y`, kept as given), sorted and paged.
 */
const ListQuery = z.looseObject({
  ...ListFilters,
  sort: z.string().optional(),
  order: SortOrder.optional(),
  /** Only the documents whose `enabled` is this (the vendor's MCP server lists `enabled=true` triggers). */
  enabled: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(0).max(1000).default(25),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** A job as a trigger answers it: the job document the run started. */
const StartedJob = z.looseObject({ _id: z.string(), name: z.string(), status: z.string() });

/** One automation on the console's Automations page: its triggers and the last jobs of its workflow. */
export const AutomationOverview = Automation.extend({
  triggers: z.array(Trigger),
  workflow: z.string().optional(),
  /** Why the automation cannot start a job now (its workflow is not stored), when it cannot. */
  problem: z.string().optional(),
  recentJobs: z.array(z.object({ _id: z.string(), name: z.string(), status: z.string(), description: z.string().optional(), start_time: z.number() })),
});
export type AutomationOverview = z.infer<typeof AutomationOverview>;

const Id = z.object({ id: RecordId });

export const automationsOperations = defineOperations({
  'automations.list': {
    method: 'GET',
    path: '/operations-manager/automations',
    summary: 'Automations, filtered by equals/contains/starts-with on a field (equalsField=name), sorted (sort, order 1|-1) and paged (skip, limit)',
    query: ListQuery,
    output: z.object({ message: z.string(), data: z.array(Automation), metadata: ListMetadata }),
  },
  'automations.get': { method: 'GET', path: '/operations-manager/automations/:id', summary: 'One automation', params: Id, output: answer(Automation) },
  'automations.create': {
    method: 'POST',
    path: '/operations-manager/automations',
    summary: 'Create an automation of a workflow (componentType "workflows", the workflow by componentId or componentName)',
    body: AutomationCreate,
    output: answer(Automation),
  },
  'automations.update': {
    method: 'PATCH',
    path: '/operations-manager/automations/:id',
    summary: 'Change the fields given of an automation; the others are kept',
    params: Id,
    body: AutomationUpdate,
    output: answer(Automation),
  },
  'automations.delete': {
    method: 'DELETE',
    path: '/operations-manager/automations/:id',
    summary: 'Delete an automation and its triggers',
    params: Id,
    output: answer(z.looseObject({ _id: z.string(), triggersDeleted: z.number() })),
  },
  'automations.export': {
    method: 'GET',
    path: '/operations-manager/automations/:id/export',
    summary: 'An automation as the service exports it: its workflow by componentName, its triggers inline',
    params: Id,
    output: answer(AutomationExport),
  },
  'automations.import': {
    method: 'PUT',
    path: '/operations-manager/automations',
    summary: 'Import exported automations with their triggers (one with the same _id or name is replaced); the answer says per automation whether it was imported',
    body: z.object({ automations: z.array(z.record(z.string(), z.unknown())).min(1, 'name at least one automation').max(500) }),
    output: answer(z.array(z.looseObject({ success: z.boolean(), data: z.unknown(), message: z.string().optional() }))),
  },
  'automations.overview': {
    method: 'GET',
    path: '/console/automations',
    summary: "The console's Automations page: every automation with its triggers and the last jobs of its workflow",
    output: z.object({ automations: z.array(AutomationOverview) }),
  },
  'triggers.list': {
    method: 'GET',
    path: '/operations-manager/triggers',
    summary: 'Triggers, filtered by equals/contains/starts-with on a field (equalsField=actionId, or actionId=: the triggers of one automation), sorted and paged',
    query: ListQuery.extend({ actionId: z.string().optional() }),
    output: z.object({ message: z.string(), data: z.array(Trigger), metadata: ListMetadata }),
  },
  'triggers.get': { method: 'GET', path: '/operations-manager/triggers/:id', summary: 'One trigger', params: Id, output: answer(Trigger) },
  'triggers.create': {
    method: 'POST',
    path: '/operations-manager/triggers',
    summary: 'Create a trigger of an automation (actionId): endpoint (routeName, verb, schema, jst), manual (formId), schedule or eventSystem',
    body: TriggerCreate,
    output: answer(Trigger),
  },
  'triggers.update': {
    method: 'PATCH',
    path: '/operations-manager/triggers/:id',
    summary: 'Change the fields given of a trigger; the others are kept',
    params: Id,
    body: TriggerUpdate,
    output: answer(Trigger),
  },
  'triggers.delete': { method: 'DELETE', path: '/operations-manager/triggers/:id', summary: 'Delete a trigger', params: Id, output: answer(z.looseObject({ _id: z.string() })) },
  'triggers.runEndpoint': {
    method: 'POST',
    path: '/operations-manager/triggers/endpoint/:routeName',
    summary:
      "Run the automation of the enabled endpoint trigger with this routeName: the body is checked against the trigger's schema, transformed by its JST when it has one, and becomes the job's variables",
    params: z.object({ routeName: RouteName }),
    body: z.unknown(),
    output: answer(StartedJob),
    maxValues: JOB_START_LIMIT,
  },
  'triggers.runManual': {
    method: 'POST',
    path: '/operations-manager/triggers/manual/:id/run',
    summary: "Run the automation of a manual trigger; formData (the form's values) become the job's variables, wrapped in formData unless the trigger says legacyWrapper false",
    params: Id,
    body: z.object({ formData: z.record(z.string(), z.unknown()).optional() }).default({}),
    output: answer(StartedJob),
    maxValues: JOB_START_LIMIT,
  },
});

// Workflows: the reference shape of a workflow document and the operations that
// import, list, read and delete them. Browser-safe: zod only.
import { z } from 'zod';
import { DocumentName, SafeId } from './ids';
import { ExcludeProjectMembers, ListFilters, SortOrder, StudioPage } from './list-query';
import { defineOperations } from './operation';

/** Ids of the two tasks every workflow has, whether or not its JSON lists them. */
export const WORKFLOW_START = 'workflow_start';
export const WORKFLOW_END = 'workflow_end';
export const RESERVED_TASK_IDS = [WORKFLOW_START, WORKFLOW_END] as const;

export const TASK_TYPES = ['automatic', 'operation', 'manual'] as const;
export const TaskType = z.enum(TASK_TYPES);
export type TaskType = z.infer<typeof TaskType>;

/** `standard` follows the flow; `revert` points back to an earlier task (a retry or polling loop). */
export const TRANSITION_TYPES = ['standard', 'revert'] as const;
export const TRANSITION_STATES = ['success', 'error', 'failure', 'loop'] as const;
export const TransitionState = z.enum(TRANSITION_STATES);
export type TransitionState = z.infer<typeof TransitionState>;

export const Transition = z.looseObject({
  type: z.enum(TRANSITION_TYPES),
  state: TransitionState,
});
export type Transition = z.infer<typeof Transition>;

/** `{ src: { dst: { type, state } } }`; `src` may map to `{}` (a task the flow ends at). */
export const Transitions = z.record(z.string(), z.record(z.string(), Transition));
export type Transitions = z.infer<typeof Transitions>;

export const TaskVariables = z.looseObject({
  /** Arguments: literals, `$var.job.<name>` / `$var.<taskId>.<outVar>` strings, or `{ task, variable | value }` objects. */
  incoming: z.record(z.string(), z.unknown()).optional(),
  /** Results of the method; a `$var.job.<name>` value writes that job variable. */
  outgoing: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A task of a workflow. `name` is the method, `app` the application or adapter
 * that owns it. The reserved `workflow_start` / `workflow_end` entries need
 * neither app nor type. Every other field (actor, groups, nodeLocation, x, y,
 * retrySettings, scheduled, ...) is kept as it is.
 */
export const WorkflowTask = z.looseObject({
  name: z.string(),
  app: z.string().optional(),
  type: z.string().optional(),
  location: z.string().optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  variables: TaskVariables.optional(),
});
export type WorkflowTask = z.infer<typeof WorkflowTask>;

/** A JSON Schema object (draft 7 subset) for the job's variables or results. */
export const JsonSchemaObject = z.record(z.string(), z.unknown());

/**
 * A workflow as the service exports it. The body of an import is taken as it
 * comes and judged by the workflow validation, so every structural problem is
 * reported in one `problems` list (see WorkflowProblem).
 */
export const WorkflowDocument = z.looseObject({
  name: z.unknown().optional(),
  tasks: z.unknown().optional(),
  transitions: z.unknown().optional(),
});

/** A workflow that passed validation (the shape the engine and the repository rely on). */
export const Workflow = z.looseObject({
  name: DocumentName,
  description: z.string().optional(),
  tasks: z.record(z.string(), WorkflowTask),
  transitions: Transitions.default({}),
  inputSchema: JsonSchemaObject.optional(),
  outputSchema: JsonSchemaObject.optional(),
});
export type Workflow = z.infer<typeof Workflow>;

/** A workflow as stored: the document plus when it was imported or replaced. */
export const StoredWorkflow = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  tasks: z.record(z.string(), WorkflowTask),
  transitions: z.record(z.string(), z.record(z.string(), z.looseObject({ type: z.string(), state: z.string() }))),
  inputSchema: JsonSchemaObject.optional(),
  outputSchema: JsonSchemaObject.optional(),
  created: z.string(),
  lastUpdated: z.string(),
});
export type StoredWorkflow = z.infer<typeof StoredWorkflow>;

/** A part a workflow's tasks need that this console's profile does not have. */
export const MissingPart = z.object({
  kind: z.enum(['adapter', 'application', 'method', 'input', 'workflow', 'transformation']),
  /** `Servicenow`, `MOP.RunCommandTemplate`, `inventory.updateDevice: body` (a required input), a child workflow's name, a transformation id. */
  name: z.string(),
  /** Ids of the tasks that need it. */
  tasks: z.array(z.string()),
  /** What people call it where `name` is an id: a missing transformation's name as its transformation task's summary gives it. */
  title: z.string().optional(),
  /** For people: `adapter Servicenow (2 tasks)`. */
  label: z.string(),
});
export type MissingPart = z.infer<typeof MissingPart>;

export const WorkflowSummary = z.object({
  name: z.string(),
  description: z.string().optional(),
  /** Tasks other than workflow_start and workflow_end. */
  taskCount: z.number(),
  transitionCount: z.number(),
  hasInputSchema: z.boolean(),
  created: z.string(),
  lastUpdated: z.string(),
  /** What its tasks need that the profile lacks; empty when it can run. */
  needs: z.array(MissingPart),
});
export type WorkflowSummary = z.infer<typeof WorkflowSummary>;

/** One problem found by validation, naming the task or the transition it is about. */
export const WorkflowProblem = z.object({
  /** Where in the document: `tasks.<id>.app`, `transitions.<src>.<dst>`, ... */
  path: z.string(),
  message: z.string(),
  task: z.string().optional(),
  transition: z.object({ src: z.string(), dst: z.string() }).optional(),
});
export type WorkflowProblem = z.infer<typeof WorkflowProblem>;

/**
 * A workflow as the import and `get` answer it: the stored document with the console's
 * `warnings` (what it doubts but the service would save: a task no path reaches, a
 * reference to a task that may not have run). Warnings are computed, never stored.
 */
export const CheckedWorkflow = StoredWorkflow.extend({ warnings: z.array(WorkflowProblem) });
export type CheckedWorkflow = z.infer<typeof CheckedWorkflow>;

const NameParams = z.object({ name: DocumentName });

export const workflowsOperations = defineOperations({
  'workflows.create': {
    method: 'POST',
    path: '/workflows',
    summary:
      'Import a workflow as the service exports it (unknown fields kept). 400 with one `problems` list naming every task or transition the service would refuse; 409 when the name exists unless overwrite=true. What the console only doubts (a task no path reaches, a reference to a task that may not have run) is answered in `warnings`. Missing adapters, applications, methods, child workflows or transformations do not refuse it: they are listed as its `needs`',
    query: z.object({
      overwrite: z
        .enum(['true', 'false'])
        .optional()
        .transform((v) => v === 'true'),
    }),
    body: WorkflowDocument,
    output: CheckedWorkflow,
  },
  'workflows.studioCreate': {
    method: 'POST',
    path: '/automation-studio/automations',
    summary:
      "Create a workflow as the service's Automation Studio does, `{ automation: <workflow> }`: answers `{ created, edit }` (the workflow stored, with its `_id`, and where to see it in the console); 400 naming each problem under body.automation, 409 when a workflow of that name exists",
    body: z.object({ automation: WorkflowDocument }, { error: 'send { "automation": <the workflow> }' }),
    output: z.object({ created: StoredWorkflow.extend({ _id: z.string() }), edit: z.string() }),
  },
  'workflows.studioUpdate': {
    method: 'PUT',
    path: '/automation-studio/automations/:id',
    summary:
      "Replace the workflow stored under this `_id`, as the service's Automation Studio does (`{ update: <workflow> }`): answers `{ updated, edit }`; its name may change (409 when another workflow has it); 404 when no workflow has the id; 400 naming each problem under body.update",
    params: z.object({ id: SafeId }),
    body: z.object({ update: WorkflowDocument }, { error: 'send { "update": <the workflow> }' }),
    output: z.object({ updated: StoredWorkflow.extend({ _id: z.string() }), edit: z.string() }),
  },
  'workflows.runEvaluationGroups': {
    method: 'POST',
    path: '/workflow_engine/runEvaluationGroups',
    summary:
      "Run evaluation groups as WorkFlowEngine's evaluation task does, to try them before a workflow uses them: `{ evaluation_groups` (or `evaluation_group`)`: [{ evaluations: [{ operand_1, operator, operand_2 }], all_true_flag }], all_true_flag }` answers `true` or `false`; 400 naming what the task cannot read",
    body: z.looseObject({
      evaluation_groups: z.array(z.looseObject({ evaluations: z.array(z.looseObject({})) }), { error: 'must be an array of groups, each with its evaluations' }).optional(),
      evaluation_group: z.array(z.looseObject({ evaluations: z.array(z.looseObject({})) }), { error: 'must be an array of groups, each with its evaluations' }).optional(),
      all_true_flag: z.boolean({ error: 'must be true or false' }).optional(),
    }),
    output: z.boolean(),
  },
  'workflows.validateAsset': {
    method: 'POST',
    path: '/workflow_engine/workflows/validate',
    summary: "Check a workflow without saving it, as the service's WorkFlowEngine does, `{ asset: <workflow> }`: `{ isValid, errors, warnings }` (what the service would refuse; what the console only doubts)",
    body: z.object({ asset: WorkflowDocument }, { error: 'send { "asset": <the workflow> }' }),
    output: z.object({ isValid: z.boolean(), errors: z.array(WorkflowProblem), warnings: z.array(WorkflowProblem) }),
  },
  'workflows.validateStudio': {
    method: 'POST',
    path: '/automation-studio/workflows/validate',
    summary: "Check a workflow without saving it, as the service's Automation Studio does, `{ workflow: <workflow> }`: `{ errors, warnings }`",
    body: z.object({ workflow: WorkflowDocument }, { error: 'send { "workflow": <the workflow> }' }),
    output: z.object({ errors: z.array(WorkflowProblem), warnings: z.array(WorkflowProblem) }),
  },
  'workflows.tasksList': {
    method: 'GET',
    path: '/workflow_builder/tasks/list',
    summary:
      "The tasks a workflow can call in this profile, as the service's workflow builder lists them: WorkFlowEngine's built-in tasks, the console's applications' tasks and each adapter instance's methods, each with `name`, `app`, `type` (manual or automatic), `location` (Application or Adapter), `canvasName`, `displayName` and, where the console knows it, `summary`",
    output: z.array(z.object({ name: z.string(), app: z.string(), type: z.enum(['automatic', 'manual']), location: z.enum(['Application', 'Adapter']), canvasName: z.string(), displayName: z.string(), summary: z.string().optional() })),
  },
  'workflows.appsList': {
    method: 'GET',
    path: '/automation-studio/apps/list',
    summary: "The applications and adapter instances of this profile, as Automation Studio lists them: `{ name, type }` (Application or Adapter)",
    output: z.array(z.object({ name: z.string(), type: z.enum(['Application', 'Adapter']) })),
  },
  'workflows.list': {
    method: 'GET',
    path: '/workflows',
    summary: 'The workflows of the active profile, by name, each with what it needs that the profile lacks',
    output: z.object({ items: z.array(WorkflowSummary) }),
  },
  'workflows.search': {
    method: 'GET',
    path: '/automation-studio/workflows',
    summary:
      "The workflow documents as the service's Automation Studio answers a page of them, `{ items, total, skip, limit, count }`, each with its `_id`: filtered by equals / contains / starts-with (`equals[name]=X`, `equals[_id]=Y`), sorted by name or _id (order 1 or -1), `include` or `exclude` a comma-separated list of fields, at most 100 a page as the service answers (limit, 25 when absent; skip). The console keeps no project members, so `exclude-project-members` changes nothing",
    query: z.looseObject({
      ...StudioPage,
      order: SortOrder.default(1),
      sort: z.enum(['name', '_id'], { error: 'must be name or _id' }).default('name'),
      'exclude-project-members': ExcludeProjectMembers,
      ...ListFilters,
    }),
    output: z.object({ items: z.array(z.looseObject({ _id: z.string().optional(), name: z.string().optional() })), total: z.number(), skip: z.number(), limit: z.number(), count: z.number() }),
  },
  'workflows.detailed': {
    method: 'GET',
    path: '/automation-studio/workflows/detailed/:name',
    summary: "One workflow document as the service's Automation Studio answers its details: the stored document, whole, with its `_id` (404 naming the name when none)",
    params: NameParams,
    output: z.looseObject({ _id: z.string(), name: z.string(), tasks: z.record(z.string(), z.unknown()) }),
  },
  'workflows.get': {
    method: 'GET',
    path: '/workflows/:name',
    summary: 'One workflow, whole, with the `warnings` of its check',
    params: NameParams,
    output: CheckedWorkflow,
  },
  'workflows.delete': {
    method: 'DELETE',
    path: '/workflows/:name',
    summary: 'Delete a workflow (jobs already started keep running)',
    params: NameParams,
    output: z.object({ deleted: z.string() }),
  },
});

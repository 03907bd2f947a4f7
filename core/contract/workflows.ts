// Workflows: the reference shape of a workflow document and the operations that
// import, list, read and delete them. Browser-safe: zod only.
import { z } from 'zod';
import { DocumentName } from './ids';
import { defineOperations } from './operation';

/** Ids of the two tasks every workflow has, whether or not its JSON lists them. */
export const WORKFLOW_START = 'workflow_start';
export const WORKFLOW_END = 'workflow_end';
export const RESERVED_TASK_IDS = [WORKFLOW_START, WORKFLOW_END] as const;

export const TaskType = z.enum(['automatic', 'operation', 'manual']);
export type TaskType = z.infer<typeof TaskType>;

export const TransitionState = z.enum(['success', 'error', 'failure']);
export type TransitionState = z.infer<typeof TransitionState>;

export const Transition = z.object({
  type: z.literal('standard'),
  state: TransitionState,
});
export type Transition = z.infer<typeof Transition>;

/** `{ src: { dst: { type, state } } }` */
export const Transitions = z.record(z.string(), z.record(z.string(), Transition));
export type Transitions = z.infer<typeof Transitions>;

export const TaskVariables = z.looseObject({
  /** Arguments of the method; a string `$var.job.<name>` or `$var.<taskId>.<outVar>` is a reference. */
  incoming: z.record(z.string(), z.unknown()).default({}),
  /** Results of the method; a `$var.job.<name>` value writes that job variable. */
  outgoing: z.record(z.string(), z.unknown()).default({}),
});

/**
 * A task of a workflow. `name` is the method, `app` the application or adapter
 * that owns it. The reserved `workflow_start` / `workflow_end` entries need
 * neither app nor type; every other task needs both (checked on `Workflow`).
 * Other fields (summary, x, y, groups, ...) are kept as they are.
 */
export const WorkflowTask = z.looseObject({
  name: z.string().min(1, 'a task needs the name of its method'),
  app: z.string().min(1).optional(),
  type: TaskType.optional(),
  location: z.enum(['Application', 'Adapter']).optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  variables: TaskVariables.optional(),
});
export type WorkflowTask = z.infer<typeof WorkflowTask>;

/** A JSON Schema object (draft 7 subset) for the job's variables or results. */
export const JsonSchemaObject = z.record(z.string(), z.unknown());

export const Workflow = z
  .looseObject({
    name: DocumentName,
    description: z.string().optional(),
    tasks: z.record(z.string(), WorkflowTask),
    transitions: Transitions.default({}),
    inputSchema: JsonSchemaObject.optional(),
    outputSchema: JsonSchemaObject.optional(),
  })
  .superRefine((workflow, ctx) => {
    for (const [id, task] of Object.entries(workflow.tasks)) {
      if ((RESERVED_TASK_IDS as readonly string[]).includes(id)) continue;
      if (!task.app) ctx.addIssue({ code: 'custom', path: ['tasks', id, 'app'], message: `task "${id}" needs an app` });
      if (!task.type) ctx.addIssue({ code: 'custom', path: ['tasks', id, 'type'], message: `task "${id}" needs a type (automatic, operation or manual)` });
    }
  });
export type Workflow = z.infer<typeof Workflow>;

/** A workflow as stored: the document plus when it was imported or replaced. */
export const StoredWorkflow = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  tasks: z.record(z.string(), WorkflowTask),
  transitions: Transitions,
  inputSchema: JsonSchemaObject.optional(),
  outputSchema: JsonSchemaObject.optional(),
  created: z.string(),
  lastUpdated: z.string(),
});
export type StoredWorkflow = z.infer<typeof StoredWorkflow>;

export const WorkflowSummary = z.object({
  name: z.string(),
  description: z.string().optional(),
  /** Tasks other than workflow_start and workflow_end. */
  taskCount: z.number(),
  transitionCount: z.number(),
  hasInputSchema: z.boolean(),
  created: z.string(),
  lastUpdated: z.string(),
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

const NameParams = z.object({ name: DocumentName });

export const workflowsOperations = defineOperations({
  'workflows.create': {
    method: 'POST',
    path: '/workflows',
    summary:
      'Import a workflow (reference shape). 400 with `problems` naming each task or transition at fault; 409 when the name exists unless overwrite=true',
    query: z.object({
      overwrite: z
        .enum(['true', 'false'])
        .optional()
        .transform((v) => v === 'true'),
    }),
    body: Workflow,
    output: StoredWorkflow,
  },
  'workflows.list': {
    method: 'GET',
    path: '/workflows',
    summary: 'The workflows of the active profile, by name',
    output: z.object({ items: z.array(WorkflowSummary) }),
  },
  'workflows.get': {
    method: 'GET',
    path: '/workflows/:name',
    summary: 'One workflow, whole',
    params: NameParams,
    output: StoredWorkflow,
  },
  'workflows.delete': {
    method: 'DELETE',
    path: '/workflows/:name',
    summary: 'Delete a workflow (jobs already started keep running)',
    params: NameParams,
    output: z.object({ deleted: z.string() }),
  },
});

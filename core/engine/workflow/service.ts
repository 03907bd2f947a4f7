// The workflows capability: import (validated, unknown fields kept), list with
// what each workflow needs, get, delete, and the check a job start makes.
import { ConsoleError } from '../../errors';
import type { MissingPart, StoredWorkflow, Workflow, WorkflowProblem, WorkflowSummary } from '../../contract/workflows';
import type { Store } from '../../store/port';
import { whileStoreAnswers } from '../../store/errors';
import { loadPartsCatalog, type AdapterListing } from './catalog';
import { describeNeeds, howToFix } from './parts';
import { listNeeds, needsWithChildren, unresolvedChildren, workflowTree } from './child-needs';
import { deleteWorkflow, getWorkflow, getWorkflowByRef, getWorkflowWithId, listWorkflowDocs, replaceWorkflowById, saveWorkflow, summarize, workflowNamesById, WorkflowExistsError } from './repository';
import { checkWorkflow } from './validate';
import { searchWorkflows, type WorkflowSearch } from './search';
import { appsList, taskPalette } from './task-palette';
import type { WorkflowWrites } from './writes';

export interface WorkflowsDeps {
  /** The active profile's store (read at each call: a profile switch replaces it). */
  store(): Store;
  /** The adapter manager's listing of the active profile, when it has one. */
  adapters(): AdapterListing | undefined;
  /** The active container's count of workflow writes, which its job runner's workflow cache follows. */
  writes(): WorkflowWrites;
}

/** A 400 naming every problem, in one list (and as `issues` with body paths, like other bad input); `at`: where the workflow sits in the body. */
export function problemsError(name: string, problems: WorkflowProblem[], at = 'body'): ConsoleError {
  const shown = problems.slice(0, 5).map((p) => p.message).join('; ');
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  return new ConsoleError('bad_input', `workflow "${name || '(unnamed)'}" cannot be imported: ${shown}${more}`, {
    problems,
    issues: problems.map((p) => ({ path: p.path ? `${at}.${p.path}` : at, message: p.message })),
  });
}

/** A store that cannot be reached or read answers 503 naming the workflows and the cause. */
export const withStore = <T>(work: () => Promise<T>): Promise<T> => whileStoreAnswers('the workflows', work);

export function createWorkflowsService(deps: WorkflowsDeps) {
  const catalog = (workflows: readonly StoredWorkflow[], knownWorkflows?: Iterable<string>) =>
    loadPartsCatalog({ store: deps.store(), adapters: deps.adapters() }, workflows, knownWorkflows);

  return {
    /** Validates and saves; a 400 lists every problem. What it needs is read with `list` or `needs`. */
    /** Saves it unless the service would refuse it; `warnings` are what the console doubts (see validate.ts). */
    async importWorkflow(
      doc: unknown,
      options: { overwrite?: boolean; at?: string } = {},
    ): Promise<{ workflow: StoredWorkflow; replaced: boolean; warnings: WorkflowProblem[] }> {
      const { problems, warnings } = checkWorkflow(doc);
      // Checked: a workflow unless problems say otherwise (its name then may be anything).
      const workflow = doc as Workflow;
      if (problems.length) throw problemsError(typeof workflow?.name === 'string' ? workflow.name : '', problems, options.at);
      return withStore(async () => {
        const existed = options.overwrite ? (await getWorkflow(deps.store(), workflow.name)) !== null : false;
        try {
          const writes = deps.writes();
          const saved = await saveWorkflow(deps.store(), workflow, { overwrite: options.overwrite }).finally(() => writes.note());
          return { workflow: saved, replaced: existed, warnings };
        } catch (error) {
          if (error instanceof WorkflowExistsError) throw new ConsoleError('conflict', error.message, { name: workflow.name });
          throw error;
        }
      });
    },

    /** Replaces the workflow stored under `id` by `doc` (at `at` in the body), checked as an import is (404 when none has that id, 409 when renamed to a name taken). */
    async replaceById(id: string, doc: unknown, at = 'body'): Promise<StoredWorkflow & { _id: string }> {
      const { problems } = checkWorkflow(doc);
      // Checked: a workflow unless problems say otherwise (its name then may be anything).
      const workflow = doc as Workflow;
      if (problems.length) throw problemsError(typeof workflow?.name === 'string' ? workflow.name : '', problems, at);
      return withStore(async () => {
        const writes = deps.writes();
        try {
          const replaced = await replaceWorkflowById(deps.store(), id, workflow).finally(() => writes.note());
          if (!replaced) throw new ConsoleError('not_found', `no workflow has the _id "${id}"`);
          return replaced;
        } catch (error) {
          if (error instanceof WorkflowExistsError) throw new ConsoleError('conflict', `${error.message}: another workflow has that name`, { name: workflow.name });
          throw error;
        }
      });
    },

    async list(): Promise<WorkflowSummary[]> {
      return withStore(async () => {
        const docs = await listWorkflowDocs(deps.store());
        // A childJob may name its workflow by the stored `_id`: those (only) are read by id.
        const idNames = await workflowNamesById(deps.store(), unresolvedChildren(docs));
        const parts = await catalog(docs, [...docs.map((doc) => doc.name), ...idNames.keys()]);
        // Ready means the workflow and every workflow it starts can run.
        const needs = await listNeeds(docs, parts, idNames);
        return docs.map((doc) => ({ ...summarize(doc), needs: needs.get(doc.name) ?? [] }));
      });
    },

    /** The tasks a workflow can call here, as the service's workflow builder lists them (task-palette.ts). */
    tasks: () => taskPalette(deps.adapters()),
    /** The applications and adapter instances, as Automation Studio lists them. */
    apps: () => appsList(deps.adapters()),

    /** A page of the workflow documents, as GET /automation-studio/workflows answers it (search.ts). */
    search: (query: WorkflowSearch) => withStore(() => searchWorkflows(deps.store(), query)),

    /** The stored document as the service's Automation Studio answers its details (GET /automation-studio/workflows/detailed/:name), with its `_id`. */
    async detailed(name: string): Promise<StoredWorkflow & { _id: string }> {
      const workflow = await withStore(() => getWorkflowWithId(deps.store(), name));
      if (!workflow) throw new ConsoleError('not_found', `no workflow named "${name}"`);
      return workflow;
    },

    async get(name: string): Promise<StoredWorkflow> {
      const workflow = await withStore(() => getWorkflow(deps.store(), name));
      if (!workflow) throw new ConsoleError('not_found', `no workflow named "${name}"`);
      return workflow;
    },

    async remove(name: string): Promise<{ deleted: string }> {
      const writes = deps.writes();
      if (!(await withStore(() => deleteWorkflow(deps.store(), name).finally(() => writes.note())))) throw new ConsoleError('not_found', `no workflow named "${name}"`);
      return { deleted: name };
    },

    /** What a job of the workflow (and its child workflows) needs; null when there is no such workflow. */
    async needs(name: string): Promise<MissingPart[] | null> {
      return withStore(async () => {
        const workflow = await getWorkflow(deps.store(), name);
        if (!workflow) return null;
        // The workflow and the children it starts, then what they name of the profile: nothing else is read.
        const tree = await workflowTree(workflow, (child) => getWorkflowByRef(deps.store(), child));
        return needsWithChildren(workflow, await catalog([...tree.values()]), (child) => tree.get(child));
      });
    },

    /** Refuses (409) to start a job of a workflow whose parts or required inputs are missing, naming them. */
    async assertStartable(name: string): Promise<void> {
      const needs = await this.needs(name);
      if (!needs || needs.length === 0) return;
      const fix = howToFix(needs);
      throw new ConsoleError('conflict', `workflow "${name}" cannot start: it needs ${describeNeeds(needs)}. ${fix[0]!.toUpperCase()}${fix.slice(1)}`, {
        needs,
      });
    },
  };
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;

// docs/workflow-engine-tasks.md, written from the task table (library.ts) so the
// page and the engine cannot disagree. test/engine/tasks/reference-page.test.ts
// checks the committed page and rewrites it with UPDATE_DOCS=1.
import { NOT_YET_BUILT, sourceOf } from './documented';
import { applicationManualTasks, builtInTasks, WORKFLOW_ENGINE_APP } from './library';
import type { BuiltInTask } from './types';

const GROUPS: [string, (task: BuiltInTask) => boolean][] = [
  ['Run by the job runner', (t) => Boolean(t.runner)],
  ['Flow and data', (t) => ['newVariable', 'merge', 'query', 'evaluation', 'delay', 'stub', 'makeData'].includes(t.method)],
  ['Arrays', (t) => /^(array|concatArray|join|isArray|fill|copyWithin|push|pushToArray|pop|shift|shiftFromArray|unshift|reverse|sort|splice|map)$|^array/.test(t.method)],
  ['Objects', (t) => ['modify', 'setObjectKey', 'keys', 'values', 'objectHasOwnProperty', 'assign', 'deepmerge', 'extractField', 'objectToString', 'parse', 'FlattenJSONFormInput'].includes(t.method)],
  ['Numbers', (t) => ['parseInt', 'parseFloat', 'toFixed', 'toPrecision', 'numberToString', 'isNaN', 'isInteger'].includes(t.method)],
  ['Time', (t) => ['getTime', 'calculateTimeDiff', 'addDuration', 'convertTimeToEpoch', 'convertTimezone'].includes(t.method)],
];

const names = (list: string[]) => (list.length ? list.map((n) => `\`${n}\``).join(', ') : '—');
const cell = (text: string) => text.replaceAll('|', '\\|');
const HEADER = ['| task | incoming | outgoing | what it does | source |', '|---|---|---|---|---|'];

function row(app: string, task: BuiltInTask): string {
  const outgoing = task.dynamicOutgoing ? "the task's own `variables.outgoing`" : names(task.outgoing);
  const shown = task.displayName ? ` (shown as ${task.displayName})` : '';
  const source = sourceOf(app, task.method);
  const link = source.startsWith('https://') ? `[${source.replace('https://', '')}](${source})` : source;
  return `| \`${task.method}\`${shown} | ${names(task.incoming)} | ${outgoing} | ${cell(task.summary)} | ${cell(link)} |`;
}

export function buildTaskReference(): string {
  const lines = [
    '# The built-in tasks of WorkFlowEngine',
    '',
    '<!-- Generated from core/engine/tasks/library.ts by test/engine/tasks/reference-page.test.ts.',
    '     Do not edit; regenerate with: UPDATE_DOCS=1 npx vitest run test/engine/tasks/reference-page.test.ts -->',
    '',
    `Every task a workflow can name with \`"app": "${WORKFLOW_ENGINE_APP}"\`, with the names of its incoming and`,
    'outgoing variables as the service exports them. Incoming values may be literals or references',
    '(`$var.job.x`, `$var.<taskId>.y`, `{ "task": "job" | "static" | "<taskId>", "variable" | "value": ... }`),',
    "anywhere inside arrays and objects. A task's `variables.outgoing` maps each outgoing variable to",
    '`$var.job.<name>` to write a job variable; `variables.error` does the same with the error of a task that',
    'ends in error. A bad argument ends the task in `error` with a message naming the argument; how each task',
    'treats `null` and `undefined` is in [null-undefined-matrix.md](null-undefined-matrix.md).',
    '',
    "The source column says where each task's definition came from: a page of the service's task reference",
    '(docs.itential.com), the release\'s reference page, or, for a task whose page was not read, the JavaScript',
    'built-in it is named after. core/engine/tasks/documented.ts holds the documented list;',
    'test/engine/tasks/documented.test.ts fails on a documented task the engine lacks.',
    '',
  ];
  const placed = new Set<string>();
  const sections = [...GROUPS, ['Strings', () => true] as [string, (task: BuiltInTask) => boolean]];
  for (const [title, belongs] of sections) {
    const tasks = [...builtInTasks.values()].filter((t) => !placed.has(t.method) && belongs(t));
    if (tasks.length === 0) continue;
    lines.push(`## ${title}`, '', ...HEADER);
    for (const task of tasks) {
      placed.add(task.method);
      lines.push(row(WORKFLOW_ENGINE_APP, task));
    }
    lines.push('');
  }
  for (const [app, tasks] of applicationManualTasks) {
    lines.push(`## ${app} (manual tasks, \`"app": "${app}"\`)`, '', ...HEADER, ...tasks.map((task) => row(app, task)), '');
  }
  lines.push(
    '## Not built yet',
    '',
    `Listed only by the newest task reference (Itential Platform 6), pages not read: ${names([...NOT_YET_BUILT])}.`,
    '',
  );
  lines.push(
    '## Task settings',
    '',
    '- `retrySettings`: `{ "autoRetry": true, "limit": 3, "delay": 5000 }` runs a task that ended in error again,',
    '  up to `limit` times, `delay` milliseconds apart, before its error transition is taken (or the job stops).',
    '- `variables.error`: `$var.job.<name>` writes the error of the task to that job variable; `$var.<taskId>.error`',
    '  reads it in a later task.',
    '- The workflow\'s `errorHandler` (a task, such as a `childJob`, or `{ "workflow": name, "variables": {...} }`)',
    '  runs once when a task ends in error with no error transition; the job then ends in error.',
    '- Transitions: `standard` or `revert` (back to an earlier task, which runs again as a new iteration: retry and',
    '  polling loops); states `success`, `error`, `failure`, and `loop` (forEach\'s body).',
    '',
    "## Job ids and the service's own job variables",
    '',
    '- Every job id is an ObjectId (24 hex digits, time first), a child job\'s too. A child\'s id is derived',
    '  from the `childJob` task run that starts it (the run\'s start time in seconds, a hash of the task',
    '  record and its attempt, and a counter: 0 for a single child, 1, 2, … for a loop\'s children in',
    '  `data_array`\'s order), so a run started again after a crash finds the child it started',
    '  (`core/engine/jobs/children.ts`, `test/engine/jobs/child-ids.test.ts`). Links (`parent`, `children`,',
    '  `ancestors`) and the console\'s job pages use these ids as they are.',
    '- A job\'s `variables` hold `_id` (its id) and `initiator` (who started it; a child: whoever started its',
    '  parent) beside the variables given, as `GET /operations-manager/jobs/:id` answers them on the',
    '  service; a given variable of either name is replaced. A childJob task\'s `job_details` therefore holds',
    '  them too.',
    '- Each child of a `childJob` loop also holds `childJobLoopIndex`, its place in `data_array` (0, 1, …), as',
    '  the service injects it; the loop\'s `job_details` holds its `status` (complete, or error when a child did',
    '  not complete) and `loop`, each child\'s status and variables, so each element tells its child by it.',
    '',
  );
  return lines.join('\n');
}

// Builds docs/null-undefined-matrix.md from what each built-in task really
// returns when one of its incoming values is null or undefined (section 1.1.6
// of the release leaves the matrix unwritten; this is ours).
import { builtInTasks, runBuiltInTask, type TaskOutcome } from '../../../core/engine/tasks/library';
import { EVALUATION_OPERATORS } from '../../../core/engine/tasks/data';
import { childJobVariables, decodeValue, encodeValue } from '../../../core/values/undefined-codec';

/** A working set of incoming values per task; each row replaces one of them. */
const BASELINES: Record<string, { incoming: Record<string, unknown>; extra?: string[]; mask?: (outcome: TaskOutcome) => TaskOutcome }> = {
  codePointAt: { incoming: { str: 'abc', pos: 1 } },
  charAt: { incoming: { str: 'abc', index: 1 } },
  charCodeAt: { incoming: { str: 'abc', index: 1 } },
  concat: { incoming: { str: 'a', stringN: ['b'] }, extra: ['stringN[0]'] },
  endsWith: { incoming: { str: 'abc', searchString: 'c', length: 3 } },
  includes: { incoming: { str: 'abc', searchString: 'b', position: 0 } },
  indexOf: { incoming: { str: 'abcb', searchValue: 'b', fromIndex: 2 } },
  lastIndexOf: { incoming: { str: 'abcb', searchValue: 'b', fromIndex: 2 } },
  stringLength: { incoming: { str: 'abc' } },
  length: { incoming: { str: 'abc' } },
  localeCompare: { incoming: { referenceStr: 'a', compareString: 'b', locales: 'en', options: { numeric: true } } },
  modify: { incoming: { object_to_update: { a: { b: 1 } }, query: 'a.b', new_value: 2 } },
  replace: { incoming: { str: 'a-b', substr: '-', newSubstr: '+' } },
  slice: { incoming: { str: 'abcdef', beginIndex: 1, endIndex: 3 } },
  split: { incoming: { str: 'a,b,c', separator: ',', limit: 2 } },
  startsWith: { incoming: { str: 'abc', searchString: 'a', position: 0 } },
  substring: { incoming: { str: 'abcdef', indexStart: 1, indexEnd: 3 } },
  toLowerCase: { incoming: { str: 'AbC' } },
  toUpperCase: { incoming: { str: 'AbC' } },
  trim: { incoming: { str: ' a ' } },
  trimStart: { incoming: { str: ' a ' } },
  match: { incoming: { str: 'a-b-c', regExp: '-', flags: 'g' } },
  search: { incoming: { str: 'a-b', regexp: '-' } },
  normalize: { incoming: { str: 'e\u0301', form: 'NFC' } },
  newVariable: { incoming: { name: 'v', value: 'x' } },
  merge: { incoming: { data_to_merge: [{ key: 'a', value: 1 }] }, extra: ['data_to_merge[0].key', 'data_to_merge[0].value'] },
  query: { incoming: { pass_on_null: false, query: 'a.b', obj: { a: { b: 1 } } }, extra: ['obj.a.b'] },
  evaluation: {
    incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [{ operand_1: 1, operator: '==', operand_2: 1 }] }] },
    extra: ['evaluation_groups[0].evaluations[0].operand_1', 'evaluation_groups[0].evaluations[0].operand_2'],
  },
  delay: { incoming: { time: 0 } },
  stub: { incoming: { type: 'success', delay: '', response: 'done' } },
  makeData: { incoming: { input: '{"n": <!n!>}', outputType: 'json', variables: { n: 1 } }, extra: ['variables.n'] },
  stringConcat: { incoming: { str: 'a', stringN: ['b'] } },
  padStart: { incoming: { str: '7', targetLength: 3, padString: '0' } },
  padEnd: { incoming: { str: '7', targetLength: 3, padString: '0' } },
  repeat: { incoming: { str: 'ab', count: 2 } },
  arrayPush: { incoming: { arr: [1], elementN: 2 } },
  arrayLength: { incoming: { arr: [1, 2] } },
  arrayIncludes: { incoming: { arr: [1, null], searchElement: 1, fromIndex: 0 } },
  arrayIndexOf: { incoming: { arr: [1, null], searchElement: 1, fromIndex: 0 } },
  arrayLastIndexOf: { incoming: { arr: [1, null, 1], searchElement: 1, fromIndex: 2 } },
  arrayPop: { incoming: { arr: [1, 2] } },
  arrayShift: { incoming: { arr: [1, 2] } },
  unshift: { incoming: { arr: [1], elementN: 0 } },
  reverse: { incoming: { arr: [1, 2] } },
  sort: { incoming: { arr: [{ n: 2 }, { n: 10 }, { n: 1 }], key: 'n', limit: 2, reverse: true } },
  arraySlice: { incoming: { arr: [1, 2, 3], begin: 1, end: 2 } },
  splice: { incoming: { arr: [1, 2, 3], start: 1, deleteCount: 1, items: ['x'] } },
  concatArray: { incoming: { arr: [1], arrayN: [2] } },
  join: { incoming: { arr: ['a', 'b'], separator: '-' } },
  map: { incoming: { arr: ['a', 'b'], map: [1, 2] } },
  arrayToString: { incoming: { arr: ['a', 1] } },
  isArray: { incoming: { arr: [1] } },
  fill: { incoming: { arr: [1, 2, 3], value: 0, start: 1, end: 2 } },
  copyWithin: { incoming: { arr: [1, 2, 3], target: 0, start: 1, end: 2 } },
  push: { incoming: { job_variable: 'list', item_to_push: 1 } },
  pushToArray: { incoming: { job_variable: 'list', item_to_push: 1 } },
  pop: { incoming: { job_variable: 'list' } },
  shift: { incoming: { job_variable: 'list' } },
  shiftFromArray: { incoming: { job_variable: 'list' } },
  setObjectKey: { incoming: { obj: { a: 1 }, path: ['b', 'c'], value: 2 } },
  keys: { incoming: { obj: { a: 1 } } },
  values: { incoming: { obj: { a: 1 } } },
  objectHasOwnProperty: { incoming: { obj: { a: 1 }, prop: 'a' } },
  assign: { incoming: { target: { a: 1 }, sourceN: [{ b: 2 }] } },
  deepmerge: { incoming: { data_to_merge: [{ key: '', value: { a: { b: 1 } } }, { key: '', value: { a: { c: 2 } } }] } },
  extractField: { incoming: { obj: { a: [{ b: 1 }] }, path: 'a[0].b' } },
  FlattenJSONFormInput: { incoming: { input: { test: ['a'], more: [1, 2] } } },
  objectToString: { incoming: { value: { a: 1 }, replacer: ['a'], space: 1 } },
  parse: { incoming: { text: '{"a":1}' } },
  parseInt: { incoming: { str: '42px', radix: 10 } },
  parseFloat: { incoming: { string: '4.5' } },
  toFixed: { incoming: { num: 1.005, digits: 1 } },
  toPrecision: { incoming: { num: 123.456, precision: 4 } },
  numberToString: { incoming: { num: 255, radix: 16 } },
  isNaN: { incoming: { value: 'x' } },
  isInteger: { incoming: { value: 3 } },
  getTime: { incoming: { timezone: '+00:00', offsetDuration: '', format: 'YYYY' }, mask: (o) => ({ ...o, outgoing: { time: '<the current time>' } }) },
  addDuration: { incoming: { inputTime: { time: '2023-01-01T00:00:00+0000', formatString: 'YYYY-MM-DDTHH:mm:ssZZ' }, offsetDuration: { months: 5 } } },
  convertTimeToEpoch: { incoming: { inputTime: { time: '2023-01-01', formatString: 'YYYY-MM-DD' }, EpochFormat: 'Seconds' } },
  convertTimezone: { incoming: { inputTime: { time: '03:00', formatString: 'HH:mm' }, NewTimezone: '+01:00' } },
  calculateTimeDiff: {
    incoming: {
      firstTime: { time: '2023-06-21T00:00:00.000000+0000', formatString: 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ' },
      secondTime: { time: '2023-06-20T00:00:00.000000+0000', formatString: 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ' },
    },
  },
};

export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return JSON.stringify(value, (_key, v) => (v === undefined ? '__undefined__' : v)).replaceAll('"__undefined__"', 'undefined');
}

function setAt(root: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(root);
  const parts = path.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '');
  let current: any = copy;
  for (const part of parts.slice(0, -1)) current = current[/^\d+$/.test(part) ? Number(part) : part];
  const last = parts.at(-1)!;
  current[/^\d+$/.test(last) ? Number(last) : last] = value;
  return copy;
}

function describeOutcome(outcome: TaskOutcome): string {
  const values = Object.entries(outcome.outgoing).map(([name, value]) => `${name} = ${show(value)}`);
  const jobVars = Object.entries(outcome.jobVariables ?? {}).map(([name, value]) => `job.${name} = ${show(value)}`);
  const parts = [...values, ...jobVars];
  if (outcome.state === 'error') return `error: ${outcome.error}`;
  return `${outcome.state}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

const cell = (text: string) => `\`${text.replaceAll('|', '\\|').replaceAll('`', "'")}\``;

const MISSING = Symbol('missing');

/** operand_1 and operand_2 of each column of the evaluation table (MISSING: the key is left out). */
const OPERAND_CASES: [label: string, left: unknown, right: unknown][] = [
  ['`null` vs `1`', null, 1],
  ['`undefined` vs `1`', undefined, 1],
  ['missing vs `1`', MISSING, 1],
  ['`1` vs `null`', 1, null],
  ['`1` vs missing', 1, MISSING],
  ['`null` vs `null`', null, null],
  ['`null` vs `undefined`', null, undefined],
  ['`"1"` vs `1`', '1', 1],
  ['`"b"` vs `1`', 'b', 1],
  ['`[]` vs `0`', [], 0],
  ['`true` vs `"true"`', true, 'true'],
  ['`["a"]` vs `"a"`', ['a'], 'a'],
];

/** The evaluation task, operator by operator, on null, undefined, missing and mixed-type operands. */
async function evaluationOperators(): Promise<string[]> {
  const lines = [
    '',
    '## evaluation, operator by operator',
    '',
    'How one evaluation ends for each operator on null, undefined, missing and mixed-type operands (`success`: the',
    'comparison holds; `failure`: it does not, and the failure transition is taken; `error`: the task ends in',
    'error). A comparison that cannot hold, such as `contains` or `!contains` of a null or missing operand_1, is a',
    '`failure`, never an error. `==` and `!=` compare as JavaScript\'s loose equality (deeply over arrays and',
    'objects), `===` and `!==` strictly, `<` `<=` `>` `>=` as JavaScript compares. `contains` of a string reads',
    'operand_2 (a string or a number) as a regular expression, as the service does: `"1"` contains `1`.',
    '',
    `| operator | ${OPERAND_CASES.map(([label]) => label).join(' | ')} |`,
    `|---|${OPERAND_CASES.map(() => '---').join('|')}|`,
  ];
  for (const operator of EVALUATION_OPERATORS) {
    const cells: string[] = [];
    for (const [, left, right] of OPERAND_CASES) {
      const evaluation: Record<string, unknown> = { operator };
      if (left !== MISSING) evaluation.operand_1 = left;
      if (right !== MISSING) evaluation.operand_2 = right;
      const outcome = await runBuiltInTask('evaluation', { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [evaluation] }] });
      cells.push(outcome.state === 'error' ? `error: ${outcome.error ?? ''}` : outcome.state);
    }
    lines.push(`| \`${operator}\` | ${cells.map(cell).join(' | ')} |`);
  }
  return lines;
}

export async function buildMatrix(): Promise<string> {
  const lines: string[] = [
    '# Null and undefined in the built-in tasks',
    '',
    '<!-- Generated by test/engine/tasks/null-undefined-matrix.test.ts from what each task really returns.',
    '     Do not edit; regenerate with: UPDATE_MATRIX=1 npx vitest run test/engine/tasks/null-undefined-matrix.test.ts -->',
    '',
    'Release 2022.1 (section 1.1.6) leaves the matrix of null versus undefined behaviour per task unwritten. This is',
    "the console's: each row runs a WorkFlowEngine task of the built-in library with a working set of incoming",
    'values in which one value (the "incoming" column) is replaced by `null`, then by `undefined`, and shows how the',
    'task ends (`success`, `failure` or `error`, which decides the transition taken) and its outgoing values.',
    '',
    'Rules that hold for every task:',
    '',
    '- An optional number or string argument given as `null` or `undefined` takes its default, as if absent.',
    '- A required argument given as `null` or `undefined` is a task error naming the argument; the error transition is taken.',
    '- Values a task passes through (newVariable, merge, query, evaluation operands) keep `null` as `null` and',
    '  `undefined` as `undefined`; the store keeps them apart with the `~4undefined` marker (table at the end).',
    '',
    '| task | incoming | given `null` | given `undefined` |',
    '|---|---|---|---|',
  ];
  for (const [method, baseline] of Object.entries(BASELINES)) {
    const task = builtInTasks.get(method);
    if (!task) throw new Error(`the matrix has a baseline for "${method}", which the library does not have`);
    for (const name of [...task.incoming, ...(baseline.extra ?? [])]) {
      // getTime's answer is the current time: shown as a placeholder so the page does not change with the clock.
      const mask = (outcome: TaskOutcome) => (baseline.mask && outcome.state !== 'error' ? baseline.mask(outcome) : outcome);
      const withNull = mask(await runBuiltInTask(method, setAt(baseline.incoming, name, null)));
      const withUndefined = mask(await runBuiltInTask(method, setAt(baseline.incoming, name, undefined)));
      lines.push(`| ${method} | ${name} | ${cell(describeOutcome(withNull))} | ${cell(describeOutcome(withUndefined))} |`);
    }
  }
  // childJob, forEach, transformation and ViewData are the job runner's: their null rules are in the runner's tests.
  const missing = [...builtInTasks.values()].filter((task) => !task.runner && !BASELINES[task.method]).map((task) => task.method);
  if (missing.length) throw new Error(`the matrix has no baseline for ${missing.join(', ')}`);

  lines.push(...(await evaluationOperators()));
  lines.push(
    '',
    '## Between tasks, in the store, over HTTP, and into a child job',
    '',
    'What a value becomes on each way it travels (section 1.1, items 1, 2 and 4):',
    '',
    '| value | stored as | read back as | over HTTP (JSON) | passed to a child job |',
    '|---|---|---|---|---|',
  );
  const samples: [string, unknown][] = [
    ['`null`', null],
    ['`undefined`', undefined],
    ['`{ a: undefined }`', { a: undefined }],
    ['`[1, undefined]`', [1, undefined]],
    ['`null` in a record written before 2021.1.10 / 2021.2.4', null],
  ];
  for (const [label, value] of samples) {
    const stored = encodeValue(value);
    const read = decodeValue(stored);
    const http = JSON.stringify({ v: read });
    const child = childJobVariables({ v: value }).v;
    lines.push(`| ${label} | ${cell(show(stored))} | ${cell(show(read))} | ${cell(http)} | ${cell(show(child))} |`);
  }
  lines.push(
    '',
    'Over HTTP an undefined variable is an absent key (`{}`); inside an array JSON has no absent slot, so it shows as',
    '`null` there. The console shows `undefined` and `null` apart. A user value equal to the string `~4undefined` is',
    'refused with an error naming where it is, since it would read back as undefined.',
    '',
  );
  return lines.join('\n');
}

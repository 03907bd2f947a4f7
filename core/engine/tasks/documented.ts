// The tasks the service's own documentation describes, and where: its task reference
// (docs.itential.com, one page per task with its incoming and outgoing variables), the
// release's reference page (spec/reference.md) and JsonForms' guide. The engine must
// have each one, under the same name and, where a page lists them, with the same
// variables: test/engine/tasks/documented.test.ts fails on one it lacks, and
// docs/workflow-engine-tasks.md shows each task's source.

export interface DocumentedTask {
  app: 'WorkFlowEngine' | 'JsonForms';
  method: string;
  /** The name the service's palette and reference show, when not the method (`length (string)`). */
  display?: string;
  /** The variables the page lists, when we read them (otherwise only the name is checked). */
  incoming?: string[];
  outgoing?: string[];
  source: string;
}

const DOCS = 'https://docs.itential.com';
const OVERVIEW = `${DOCS}/itential-platform/6/studio/tasks/reference/task-references`;
const SPEC = 'spec/reference.md (release 2022.1)';
/** The vendor's guide for building workflows (its public builder-skills repository), which lists each utility task's variables. */
const GUIDE = 'https://github.com/itential/builder-skills (builder-agent skill, "Utility Tasks (WorkFlowEngine)")';

/** Tasks named in the reference overview, read by name (their pages were not all read). */
const BY_NAME = [
  'addDuration', 'arrayIncludes', 'arrayIndexOf', 'arrayLastIndexOf',
  'calculateTimeDiff', 'charAt', 'charCodeAt', 'concat', 'convertTimeToEpoch', 'convertTimezone',
  'endsWith', 'ErrorHandling', 'extractField', 'fill', 'getTime', 'includes', 'indexOf',
  'keys', 'lastIndexOf',
];

export const DOCUMENTED_TASKS: readonly DocumentedTask[] = [
  // Pages read, with their variables.
  { app: 'WorkFlowEngine', method: 'modify', incoming: ['object_to_update', 'query', 'new_value'], outgoing: ['updated_object'], source: `${DOCS}/docs/modify-7` },
  { app: 'WorkFlowEngine', method: 'stringLength', display: 'length (string)', incoming: ['str'], outgoing: ['length'], source: `${DOCS}/docs/length-string-7` },
  { app: 'WorkFlowEngine', method: 'arrayLength', display: 'length (array)', incoming: ['arr'], outgoing: ['length'], source: `${DOCS}/docs/length-array-7` },
  {
    app: 'WorkFlowEngine',
    method: 'localeCompare',
    incoming: ['referenceStr', 'compareString', 'locales', 'options'],
    outgoing: ['compareResult'],
    source: `${DOCS}/docs/localcompare-7`,
  },
  { app: 'WorkFlowEngine', method: 'arrayPop', display: 'pop (array)', incoming: ['arr'], outgoing: ['poppedArray'], source: `${DOCS}/docs/pop-array-7` },
  // The job-variable pop ("popFromArray" in the reference): the page names its outgoing popped_item.
  { app: 'WorkFlowEngine', method: 'pop', outgoing: ['popped_item'], source: `${DOCS}/docs/popfromarray-6` },
  { app: 'WorkFlowEngine', method: 'toUpperCase', incoming: ['str'], outgoing: ['uppercaseString'], source: `${DOCS}/itential-cloud/studio/tasks/reference/to-uppercase` },
  // The job-variable forms, as the vendor's guide for workflow builders names their variables (`job_variable`,
  // `item_to_push` → `job_variable_value`; `shifted_item`, as the shift page says), and shift's array form,
  // whose page runs it as the arrayShift task.
  { app: 'WorkFlowEngine', method: 'push', incoming: ['job_variable', 'item_to_push'], outgoing: ['job_variable_value'], source: GUIDE },
  { app: 'WorkFlowEngine', method: 'shift', incoming: ['job_variable'], outgoing: ['shifted_item'], source: GUIDE },
  { app: 'WorkFlowEngine', method: 'arrayShift', display: 'shift (array)', incoming: ['arr'], outgoing: ['shiftedArray'], source: `${DOCS}/docs/shift-array-7` },
  // Its page: rows of Task and Variable as merge's, the Key "not used"; the name of the outgoing from the vendor's guide for builders.
  { app: 'WorkFlowEngine', method: 'deepmerge', incoming: ['data_to_merge'], outgoing: ['merged_object'], source: `${DOCS}/itential-platform/6/studio/tasks/reference/deepmerge` },
  { app: 'WorkFlowEngine', method: 'newVariable', incoming: ['name', 'value'], outgoing: ['value'], source: `${DOCS}/itential-platform/6/studio/tasks/reference/new-variable` },
  // String tasks of the reference's second half (pages read, with their variables).
  { app: 'WorkFlowEngine', method: 'match', incoming: ['str', 'regExp', 'flags'], outgoing: ['matches'], source: `${DOCS}/docs/match-task-iap-2023-2` },
  { app: 'WorkFlowEngine', method: 'search', display: 'search (string)', incoming: ['str', 'regexp'], outgoing: ['index'], source: `${DOCS}/docs/search-string-7` },
  { app: 'WorkFlowEngine', method: 'normalize', display: 'normalize (string)', incoming: ['str', 'form'], outgoing: ['normalizedString'], source: `${DOCS}/docs/normalize-string-7` },
  { app: 'WorkFlowEngine', method: 'trimStart', incoming: ['str'], outgoing: ['trimmedStart'], source: `${DOCS}/docs/trimstart-7` },
  // Each task's own page, where the overview's list or this console's first guess had other names.
  { app: 'WorkFlowEngine', method: 'join', incoming: ['arr', 'separator'], outgoing: ['joinedElements'], source: `${DOCS}/itential-platform/6/studio/tasks/reference/join` },
  { app: 'WorkFlowEngine', method: 'isArray', incoming: ['arr'], outgoing: ['isAnArray'], source: `${DOCS}/docs/isarray-7` },
  { app: 'WorkFlowEngine', method: 'concatArray', incoming: ['arr', 'arrayN'], outgoing: ['combinedArray'], source: `${DOCS}/docs/concat-array-task-iap-2023-2` },
  { app: 'WorkFlowEngine', method: 'assign', incoming: ['target', 'sourceN'], outgoing: ['targetObject'], source: `${DOCS}/docs/assign-task-iap-2023-2` },
  { app: 'WorkFlowEngine', method: 'copyWithin', incoming: ['arr', 'target', 'start', 'end'], outgoing: ['copiedArray'], source: `${DOCS}/docs/copywithin-array-7` },
  { app: 'WorkFlowEngine', method: 'arrayToString', incoming: ['arr'], outgoing: ['arrayString'], source: `${DOCS}/itential-platform/6/studio/tasks/reference/to-string-array` },
  { app: 'WorkFlowEngine', method: 'sort', incoming: ['arr', 'key', 'limit', 'reverse'], outgoing: ['response'], source: `${DOCS}/docs/sort-array-task-1` },
  { app: 'WorkFlowEngine', method: 'parse', incoming: ['text'], outgoing: ['textObject'], source: `${DOCS}/docs/parse-string-5` },
  { app: 'WorkFlowEngine', method: 'numberToString', incoming: ['num', 'radix'], outgoing: ['numToString'], source: `${DOCS}/itential-cloud/studio/tasks/reference/number-to-string` },
  { app: 'WorkFlowEngine', method: 'parseInt', incoming: ['str', 'radix'], outgoing: ['result'], source: `${DOCS}/docs/parseint-number-7` },
  { app: 'WorkFlowEngine', method: 'objectToString', incoming: ['value', 'replacer', 'space'], outgoing: ['stringified'], source: `${DOCS}/docs/objecttostring-7` },
  // Pages of the reference without a release in their address, as the older ones are.
  { app: 'WorkFlowEngine', method: 'map', incoming: ['arr', 'map'], outgoing: ['result'], source: `${DOCS}/docs/map-task` },
  { app: 'WorkFlowEngine', method: 'FlattenJSONFormInput', incoming: ['input'], outgoing: ['response'], source: `${DOCS}/docs/flattenjsonforminput-task` },
  // Pages read that agree with what this console had.
  { app: 'WorkFlowEngine', method: 'unshift', incoming: ['arr', 'elementN'], outgoing: ['unshiftedArray'], source: `${DOCS}/docs/unshift-7` },
  { app: 'WorkFlowEngine', method: 'reverse', incoming: ['arr'], outgoing: ['reversedArray'], source: `${DOCS}/docs/reverse-7` },
  { app: 'WorkFlowEngine', method: 'arraySlice', incoming: ['arr', 'begin', 'end'], outgoing: ['slicedArray'], source: `${DOCS}/docs/slice-array-task-iap-2023-2` },
  { app: 'WorkFlowEngine', method: 'values', incoming: ['obj'], outgoing: ['values'], source: `${DOCS}/docs/values-7` },
  { app: 'WorkFlowEngine', method: 'objectHasOwnProperty', incoming: ['obj', 'prop'], outgoing: ['result'], source: `${DOCS}/docs/objecthasownproperty-7` },
  { app: 'WorkFlowEngine', method: 'slice', incoming: ['str', 'beginIndex', 'endIndex'], outgoing: ['slicedString'], source: `${DOCS}/docs/slice-string-task-iap-2023-2` },
  { app: 'WorkFlowEngine', method: 'split', incoming: ['str', 'separator', 'limit'], outgoing: ['splitArray'], source: `${DOCS}/docs/split-7` },
  { app: 'WorkFlowEngine', method: 'startsWith', incoming: ['str', 'searchString', 'position'], outgoing: ['result'], source: `${DOCS}/docs/startswith-7` },
  { app: 'WorkFlowEngine', method: 'substring', incoming: ['str', 'indexStart', 'indexEnd'], outgoing: ['response'], source: `${DOCS}/docs/substring-iap-task` },
  { app: 'WorkFlowEngine', method: 'toLowerCase', incoming: ['str'], outgoing: ['lowercaseString'], source: `${DOCS}/docs/tolowercase-string-7` },
  { app: 'WorkFlowEngine', method: 'trim', incoming: ['str'], outgoing: ['noWhitespace'], source: `${DOCS}/itential-platform/6/studio/tasks/reference/trim` },
  { app: 'WorkFlowEngine', method: 'padStart', incoming: ['str', 'targetLength', 'padString'], outgoing: ['paddedString'], source: `${DOCS}/docs/padstart-7` },
  { app: 'WorkFlowEngine', method: 'repeat', incoming: ['str', 'count'], outgoing: ['repeatedString'], source: `${DOCS}/itential-platform/2023-2/studio/tasks/reference/repeat` },
  { app: 'WorkFlowEngine', method: 'shiftFromArray', outgoing: ['shifted_item'], source: `${DOCS}/docs/shiftfromarray-1` },
  // The release's own reference page.
  { app: 'WorkFlowEngine', method: 'merge', incoming: ['data_to_merge'], outgoing: ['merged_object'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'evaluation', incoming: ['all_true_flag', 'evaluation_groups'], outgoing: ['return_value'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'query', incoming: ['pass_on_null', 'query', 'obj'], outgoing: ['return_data'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'stub', incoming: ['type', 'delay', 'response'], outgoing: ['response'], source: SPEC },
  {
    app: 'WorkFlowEngine',
    method: 'childJob',
    incoming: ['task', 'workflow', 'variables', 'data_array', 'transformation', 'loopType'],
    outgoing: ['job_details'],
    source: SPEC,
  },
  { app: 'WorkFlowEngine', method: 'transformation', incoming: ['tr_id', 'variableMap', 'options'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'ViewData', incoming: ['header', 'message', 'body', 'variables', 'btn_success', 'btn_failure'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'delay', incoming: ['time'], outgoing: ['time_in_milliseconds'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'arrayPush', incoming: ['arr', 'elementN'], outgoing: ['pushedArray'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'makeData', incoming: ['input', 'outputType', 'variables'], outgoing: ['output'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'codePointAt', incoming: ['str', 'pos'], outgoing: ['codePointValue'], source: SPEC },
  { app: 'WorkFlowEngine', method: 'forEach', incoming: ['data_array'], outgoing: ['current_item'], source: `${SPEC}; the loop transition state` },
  // JsonForms' guide to forms from a JSON schema (2022.1 to 2023.2).
  {
    app: 'JsonForms',
    method: 'RenderJsonSchema',
    incoming: ['jsonSchema', 'uiSchema', 'bindingSchema', 'validationSchema', 'formData'],
    source: `${DOCS}/itential-platform/2023-2/studio/form-builder/use-json-schema`,
  },
  ...BY_NAME.map((method): DocumentedTask => ({ app: 'WorkFlowEngine', method, source: OVERVIEW })),
];

/**
 * Tasks only the newest reference (Itential Platform 6) lists, whose pages were not read and
 * which this console does not have yet: named here so they are not forgotten (not checked).
 */
export const NOT_YET_BUILT: readonly string[] = [
  'convertEpochToObject', 'convertTimeFormat', 'csvStringToJSON', 'eventListenerJob', 'excelToJson',
  // Listed in the reference's second half; their pages' variables were not found (trimEnd's outgoing name, restCall's app).
  'trimEnd', 'restCall',
];

/** Where a task's definition came from: its documentation page, or the JavaScript method it is named after. */
export function sourceOf(app: string, method: string): string {
  return DOCUMENTED_TASKS.find((task) => task.app === app && task.method === method)?.source ?? 'the JavaScript built-in of the same name (no page of the reference read)';
}

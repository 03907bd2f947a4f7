// The one method table: every `Library.method` a document's method, declaration
// or template step can name. A name missing here is an "unsupported method" error.
import { arrayMethods } from './array';
import { objectMethods } from './object';
import { stringMethods } from './string';
import { mathMethods, numberMethods } from './number';
import { bitwiseMethods, booleanMethods, conditionalMethods, equalityMethods, logicalMethods, nullMethods, relationalMethods } from './logic';
import { dateMethods, jsonMethods, regexpMethods, setMethods, workflowEngineMethods } from './json-date-regexp';
import { addBuiltIns } from './builtins';
import type { MethodEntry, MethodTable } from './types';

export const LIBRARIES: Record<string, MethodTable> = {
  Array: arrayMethods,
  Object: objectMethods,
  String: stringMethods,
  Number: numberMethods,
  Math: mathMethods,
  JSON: jsonMethods,
  Date: dateMethods,
  RegExp: regexpMethods,
  Boolean: booleanMethods,
  Logical: logicalMethods,
  Equality: equalityMethods,
  Relational: relationalMethods,
  Conditional: conditionalMethods,
  Bitwise: bitwiseMethods,
  Null: nullMethods,
  Set: setMethods,
  WorkFlowEngine: workflowEngineMethods,
};
addBuiltIns(LIBRARIES);

export function findMethod(library: string | undefined, method: string | undefined): MethodEntry | undefined {
  if (!library || !method) return undefined;
  const table = LIBRARIES[library];
  return table && Object.prototype.hasOwnProperty.call(table, method) ? table[method] : undefined;
}

/** Every `Library.method`, for the page and the tests (`builtIn: false` leaves out those made from JavaScript's built-ins). */
export function methodNames(options: { builtIn?: boolean } = {}): string[] {
  return Object.entries(LIBRARIES).flatMap(([library, table]) =>
    Object.entries(table)
      .filter(([, entry]) => options.builtIn !== false || !entry.builtIn)
      .map(([m]) => `${library}.${m}`),
  );
}

export type { CallContext, MethodEntry, MethodTable } from './types';

// References between the documents of one bundle. A project names its own
// documents `@<projectId>: Name` (child-job workflows, MOP templates); the console
// stores them under `Name`, so such a reference is rewritten to the stored name when
// the bundle carries a document of that name. Iterative: any depth, no recursion.

const PROJECT_NAME = /^@([0-9a-fA-F]{24}): (.+)$/;

/** Rewrites in place; answers how many references were resolved. */
export function resolveProjectNames(doc: unknown, names: ReadonlySet<string>): number {
  let resolved = 0;
  const stack: unknown[] = [doc];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        const name = rewrite(item, names);
        if (name !== undefined) {
          node[index] = name;
          resolved++;
        } else if (item !== null && typeof item === 'object') stack.push(item);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const name = rewrite(item, names);
        if (name !== undefined) {
          Reflect.set(node, key, name);
          resolved++;
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
  return resolved;
}

function rewrite(value: unknown, names: ReadonlySet<string>): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = PROJECT_NAME.exec(value);
  const name = match?.[2];
  return name !== undefined && names.has(name) ? name : undefined;
}

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTaskReference } from '../../../core/engine/tasks/reference-page';
import { builtInTasks } from '../../../core/engine/tasks/library';

const DOC = path.resolve(import.meta.dirname, '../../../docs/workflow-engine-tasks.md');
const HOW = 'run UPDATE_DOCS=1 npx vitest run test/engine/tasks/reference-page.test.ts';

describe('docs/workflow-engine-tasks.md', () => {
  it('is the page generated from the task table (UPDATE_DOCS=1 rewrites it)', () => {
    const generated = buildTaskReference();
    if (process.env.UPDATE_DOCS === '1') {
      writeFileSync(DOC, generated);
      console.log(`rewrote ${DOC}`);
    }
    expect(existsSync(DOC), `${DOC} is missing: ${HOW}`).toBe(true);
    expect(readFileSync(DOC, 'utf8'), `the page is out of date: ${HOW}`).toBe(generated);
  });

  it('lists every built-in task once, with its variables', () => {
    const page = buildTaskReference();
    for (const task of builtInTasks.values()) {
      const rows = page.split('\n').filter((line) => line.startsWith(`| \`${task.method}\` |`) || line.startsWith(`| \`${task.method}\` (shown as `));
      expect(rows, task.method).toHaveLength(1);
      for (const name of task.incoming) expect(rows[0], `${task.method} ${name}`).toContain(`\`${name}\``);
    }
    expect(page).toMatch(/\| `merge` \| `data_to_merge` \| `merged_object` \|/);
    expect(page).toMatch(/\| `arrayPush` \| `arr`, `elementN` \| `pushedArray` \|/);
  });

  it('says where each documented task came from, and shows the JsonForms manual tasks', () => {
    const page = buildTaskReference();
    expect(page).toMatch(/\| `modify` \| `object_to_update`, `query`, `new_value` \| `updated_object` \| .* \| \[docs\.itential\.com\/docs\/modify-7\]/);
    expect(page).toMatch(/\| `stringLength` \(shown as length \(string\)\) \| `str` \| `length` \|/);
    expect(page).toMatch(/## JsonForms[\s\S]*\| `RenderJsonSchema` \| `jsonSchema`, `uiSchema`, `bindingSchema`, `validationSchema`, `formData` \|/);
  });
});

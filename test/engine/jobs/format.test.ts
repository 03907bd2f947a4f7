// How the job page writes values: undefined (absent over HTTP, listed in
// undefinedPaths) reads `undefined`, null reads `null`.
import { describe, expect, it } from 'vitest';
import { formatValue, restoreUndefined } from '../../../renderer/jobs/format';

describe('job values in the UI', () => {
  it('puts the undefined values back where undefinedPaths says, apart from null', () => {
    const data = { variables: { none: null, list: [null, 1], deep: { a: {} } }, taskRuns: [{ outgoing: {} }] };
    const restored = restoreUndefined(data, ['variables.gone', 'variables.list[0]', 'variables.deep.a.b', 'taskRuns.0.outgoing.x']);
    expect(formatValue(restored.variables)).toBe(
      ['{', '  "none": null,', '  "list": [', '    undefined,', '    1', '  ],', '  "deep": {', '    "a": {', '      "b": undefined', '    }', '  },', '  "gone": undefined', '}'].join('\n'),
    );
    expect(formatValue(restored.taskRuns[0]!.outgoing)).toBe('{\n  "x": undefined\n}');
    // The data as received is left alone.
    expect(data.variables).toEqual({ none: null, list: [null, 1], deep: { a: {} } });
  });

  it('writes undefined met in the value itself (the desktop transport keeps it)', () => {
    expect(formatValue({ a: undefined, b: 'x', c: [] })).toBe('{\n  "a": undefined,\n  "b": "x",\n  "c": []\n}');
  });
});

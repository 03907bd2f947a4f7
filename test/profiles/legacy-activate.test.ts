import { describe, expect, it } from 'vitest';
import { findLegacyActivate, legacyActivateWarnings } from '../../core/profiles/legacy-activate';
import { previewActivateMigration } from '../../core/profiles/migrate-activate';

describe('findLegacyActivate', () => {
  it("finds activate in the 2020.1 workflow engine's service config", () => {
    const [finding, ...more] = findLegacyActivate({ model: '@itential/app-workflow_engine', properties: { activate: false } });
    expect(more).toEqual([]);
    expect(finding).toMatchObject({ place: 'workflow-engine', releases: '2020.1', jsonPath: '$.properties.activate', value: false });
    expect(finding!.message).toContain('processTasksOnStart');
  });

  it("finds activate in the 2019.2/2019.3 task worker's service config, by type, name or id", () => {
    for (const config of [{ type: 'TaskWorker' }, { name: 'task_worker' }, { id: 'Task Worker' }]) {
      expect(findLegacyActivate({ ...config, properties: { activate: true } })).toEqual([
        expect.objectContaining({ place: 'task-worker', releases: '2019.2 and 2019.3', value: true }),
      ]);
    }
  });

  it('reads a config that names no service as the workflow engine, and says so', () => {
    const [finding] = findLegacyActivate({ properties: { activate: true } });
    expect(finding).toMatchObject({ place: 'workflow-engine', value: true });
    expect(finding!.message).toContain('names no service');
  });

  it('finds each config of a list of service configs, with its JSON path', () => {
    const found = findLegacyActivate([
      { name: 'AdminEssentials', properties: { something: 1 } },
      { type: 'WorkFlowEngine', properties: { activate: 'false' } },
      { type: 'TaskWorker', properties: { activate: true } },
    ]);
    expect(found.map((f) => [f.place, f.jsonPath, f.value])).toEqual([
      ['workflow-engine', '$[1].properties.activate', false],
      ['task-worker', '$[2].properties.activate', true],
    ]);
    expect(found[0]!.message).toContain('read "false" as false');
  });

  it('finds activate left in a properties.json', () => {
    expect(findLegacyActivate({ id: 'p', processTasksOnStart: true, activate: false })).toEqual([
      expect.objectContaining({ place: 'properties', jsonPath: '$.activate', value: false }),
    ]);
  });

  it('finds nothing where there is no activate', () => {
    expect(findLegacyActivate({ id: 'p', processTasksOnStart: true, mongoProps: { db: 'x' } })).toEqual([]);
    expect(findLegacyActivate(null)).toEqual([]);
    expect(findLegacyActivate('activate')).toEqual([]);
  });
});

describe('warnings for a loaded file', () => {
  it('names the replacement, and says processTasksOnStart wins when they contradict', () => {
    const [warning] = legacyActivateWarnings({ id: 'p', processTasksOnStart: false, activate: true });
    expect(warning).toContain('processTasksOnStart (properties.json)');
    expect(warning).toContain('contradicts processTasksOnStart (false): processTasksOnStart wins');
  });
  it('says what applies when processTasksOnStart is not set', () => {
    const [warning] = legacyActivateWarnings({ id: 'p', activate: false });
    expect(warning).toContain('processTasksOnStart is not set');
  });
});

describe('the migration preview', () => {
  it('proposes processTasksOnStart with the value of the service config', () => {
    const preview = previewActivateMigration(
      { id: 'dr', processTasksOnStart: true },
      { config: { type: 'WorkFlowEngine', properties: { activate: false } }, source: 'wfe-service-config.json' },
    );
    expect(preview).toMatchObject({
      applicable: true,
      changes: true,
      before: { processTasksOnStart: true },
      after: { processTasksOnStart: false },
      source: 'wfe-service-config.json',
    });
    expect(preview.message).toContain('processTasksOnStart: true → false');
    expect(preview.message).toContain("the workflow engine's service config, 2020.1");
    expect(preview.message).toContain('processTasksOnStart (true) wins');
  });

  it('prefers the 2020.1 workflow engine config over a 2019 task worker config', () => {
    const preview = previewActivateMigration(
      { id: 'p' },
      { config: [{ type: 'TaskWorker', properties: { activate: true } }, { type: 'WorkFlowEngine', properties: { activate: false } }] },
    );
    expect(preview.after.processTasksOnStart).toBe(false);
  });

  it('refuses configs of the same place that disagree', () => {
    const preview = previewActivateMigration(
      { id: 'p' },
      { config: [{ type: 'WorkFlowEngine', properties: { activate: true } }, { type: 'WorkFlowEngine', properties: { activate: false } }] },
    );
    expect(preview.applicable).toBe(false);
    expect(preview.message).toContain('both true and false');
  });

  it('has nothing to do without activate', () => {
    const preview = previewActivateMigration({ id: 'p', processTasksOnStart: true });
    expect(preview).toMatchObject({ applicable: false, changes: false });
    expect(preview.message).toContain('nothing to migrate');
  });
});

describe('the migration on a DR standby', () => {
  it('proposes false on a profile with processTasksOnStart false, and spells out what each value does', () => {
    const preview = previewActivateMigration({ id: 'dr', processTasksOnStart: false, activate: true });
    expect(preview).toMatchObject({ applicable: true, changes: true, after: { processTasksOnStart: false } });
    expect(preview.message).toContain('this profile is a standby (processTasksOnStart false): the proposed value keeps it false');
    expect(preview.consequence).toContain('does not work tasks when it starts');
    const primary = previewActivateMigration({ id: 'p', activate: true });
    expect(primary.after.processTasksOnStart).toBe(true);
    expect(primary.consequence).toContain('both would work the same queue');
  });
});

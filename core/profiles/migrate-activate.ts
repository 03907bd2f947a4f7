// Moving a legacy `activate` setting to `processTasksOnStart` (release notes 1.2.5 and 9.2):
// the preview says what would change; the migration writes it, keeping a dated backup.
import { promises as fs } from 'node:fs';
import type { MigrateActivatePreview } from '../contract/profiles';
import { writeFileAtomic } from '../files/atomic';
import { propertiesFile, type ProfileProperties } from './directory';
import { findLegacyActivate, type LegacyActivateFinding } from './legacy-activate';
import { writeProfile } from './repository';
import type { Vault } from '../secrets/secrets';

/** Later places win: the 2020.1 workflow engine config over the 2019.x task worker config. */
const PLACE_RANK: Record<LegacyActivateFinding['place'], number> = { 'workflow-engine': 3, 'task-worker': 2, properties: 1 };

export interface MigrationInput {
  config?: unknown;
  source?: string;
}

export function previewActivateMigration(profile: ProfileProperties, input: MigrationInput = {}): MigrateActivatePreview {
  const fromConfig = input.config !== undefined;
  const source = input.source?.trim() || (fromConfig ? 'the given service config' : `properties.json of profile "${profile.id}"`);
  const findings = findLegacyActivate(fromConfig ? input.config : profile);
  const before = {
    processTasksOnStart: profile.processTasksOnStart,
    ...('activate' in profile ? { activate: profile.activate } : {}),
  };
  const none = (message: string): MigrateActivatePreview => ({
    id: profile.id,
    source,
    findings,
    applicable: false,
    before,
    after: { processTasksOnStart: profile.processTasksOnStart },
    changes: false,
    message,
  });
  if (findings.length === 0) return none(`no \`activate\` setting found in ${source}: nothing to migrate`);

  const top = Math.max(...findings.map((f) => PLACE_RANK[f.place]));
  const deciding = findings.filter((f) => PLACE_RANK[f.place] === top);
  const [chosen] = deciding;
  if (chosen === undefined) return none(`no \`activate\` setting found in ${source}: nothing to migrate`);
  const values = new Set(deciding.map((f) => f.value));
  if (values.size > 1) {
    return none(
      `${source} sets \`activate\` both true and false (${deciding.map((f) => `${f.jsonPath} = ${f.value}`).join(', ')}): ` +
        'migrate from the one service config of this server',
    );
  }
  const found = chosen.value;
  // A DR standby (processTasksOnStart false) stays a standby: a legacy `activate: true`
  // is proposed as false, since true would make it work the queue it shares with the primary.
  const keepsStandby = profile.processTasksOnStart === false && found === true;
  const value = keepsStandby ? false : found;
  const removesKey = 'activate' in profile;
  const changes = profile.processTasksOnStart !== value || removesKey;
  const from =
    chosen.place === 'properties'
      ? `\`activate\` in ${source}`
      : `\`activate\` at ${chosen.jsonPath} of ${source} (${chosen.place === 'task-worker' ? "the task worker's service config, 2019.2/2019.3" : "the workflow engine's service config, 2020.1"})`;
  const current = profile.processTasksOnStart;
  const parts = keepsStandby
    ? [`this profile is a standby (processTasksOnStart false): the proposed value keeps it false, although ${from} says true`]
    : [
    current === value
      ? `processTasksOnStart is already ${value}, the value of ${from}`
      : `processTasksOnStart: ${current ?? 'not set'} → ${value}, the value of ${from}`,
      ];
  if (typeof current === 'boolean' && current !== value) parts.push(`until this is written, processTasksOnStart (${current}) wins`);
  if (removesKey) parts.push('the obsolete `activate` is removed from properties.json');
  return {
    id: profile.id,
    source,
    findings,
    applicable: true,
    before,
    after: { processTasksOnStart: value },
    changes,
    message: `${parts.join('; ')}.`,
    consequence: value
      ? 'With true, this server claims and runs tasks from the task queue at every start; on a DR standby that shares the database with a primary, both would work the same queue.'
      : 'With false, this server does not work tasks when it starts: jobs started here wait until a server that works tasks (the primary) runs them, or until the worker is started on the Configure tab.',
  };
}

/** The migrated profile, written with a dated backup of the file it replaces. */
export async function applyActivateMigration(
  dataDir: string,
  vault: Vault,
  profile: ProfileProperties,
  preview: MigrateActivatePreview,
): Promise<{ profile: ProfileProperties; backup: string }> {
  const { activate: _removed, ...rest } = profile;
  const migrated: ProfileProperties = { ...rest, processTasksOnStart: preview.after.processTasksOnStart };
  const file = propertiesFile(dataDir, profile.id);
  const backup = `${file}.before-activate-migration-${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
  await writeFileAtomic(backup, await fs.readFile(file), { mode: 0o600 });
  await writeProfile(dataDir, vault, migrated);
  return { profile: migrated, backup };
}

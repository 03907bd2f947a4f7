// `activate` in a service config (release notes 1.2 rule 5, 9.2): found by the profiles'
// findLegacyActivate, placed on its line, with what the migration needs to carry it over.
import { findLegacyActivate } from '../../profiles/legacy-activate';
import { maskSecrets } from '../../profiles/secrets';
import { valueAt, type JsonDoc } from '../json-doc';
import { finding, type Finding } from '../types';

/** A config larger than this is not carried in the finding (the migration then reads the file). */
const MAX_CONFIG_CHARS = 64 * 1024;

/** The object that holds the setting: the service config for `...properties.activate`, else the document. */
function holderPath(jsonPath: string): string {
  if (jsonPath.endsWith('.properties.activate')) return jsonPath.slice(0, -'.properties.activate'.length) || '$';
  return jsonPath.replace(/\.activate$/, '') || '$';
}

export function checkActivate(file: string, doc: JsonDoc): Finding[] {
  const found: Finding[] = [];
  for (const legacy of findLegacyActivate(doc.value)) {
    const raw = valueAt(doc.value, legacy.jsonPath);
    // A JSON schema that declares an `activate` property (`{"properties": {"activate": {"type": "boolean"}}}`)
    // is a description of a field, not the setting.
    if (raw !== null && typeof raw === 'object') continue;
    const config = valueAt(doc.value, holderPath(legacy.jsonPath));
    // Carried for the migration, which reads only `activate`: its secrets are masked.
    const carried = JSON.stringify(config ?? null).length <= MAX_CONFIG_CHARS ? maskSecrets(config).masked : undefined;
    found.push(
      finding({
        rule: 'activate-setting',
        file,
        line: doc.lineOf(legacy.jsonPath),
        message: legacy.place === 'properties' ? legacy.message : `${legacy.message}. It lived there in ${legacy.releases}.`,
        fix: `Set "processTasksOnStart": ${legacy.value} in the profile's properties.json and remove activate; the Upgrade page applies this migration to the active profile`,
        blocking: true,
        migration: {
          place: legacy.place,
          releases: legacy.releases,
          jsonPath: legacy.jsonPath,
          value: legacy.value,
          ...(carried !== undefined ? { config: carried } : {}),
        },
      }),
    );
  }
  return found;
}

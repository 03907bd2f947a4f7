// What each rule of the upgrade check reports, and the context a rule gets for one file.
import { UPGRADE_RULES, type UpgradeFinding } from '../contract/upgrade';
import { maskInText } from '../secrets/classify';

export type Finding = UpgradeFinding;

/** A finding of its rule in its file, with the rule's release-notes section. */
export function finding(found: Omit<Finding, 'section'>): Finding {
  // A finding quotes the code it is about: a URL's password or a token in its query is masked there.
  return { ...found, message: maskInText(found.message), fix: maskInText(found.fix), section: UPGRADE_RULES[found.rule].section };
}

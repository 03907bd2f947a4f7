// What each rule of the upgrade check reports, and the context a rule gets for one file.
import { UPGRADE_RULES, type UpgradeFinding, type UpgradeRule } from '../contract/upgrade';
import { maskInText } from '../secrets/classify';

export type Finding = UpgradeFinding;

/** A finding of `rule` in `file`, with the rule's release-notes section. */
export function finding(
  rule: UpgradeRule,
  file: string,
  line: number,
  message: string,
  fix: string,
  blocking: boolean,
  extra: Pick<Finding, 'migration'> = {},
): Finding {
  // A finding quotes the code it is about: a URL's password or a token in its query is masked there.
  return { rule, file, line, message: maskInText(message), fix: maskInText(fix), section: UPGRADE_RULES[rule].section, blocking, ...extra };
}

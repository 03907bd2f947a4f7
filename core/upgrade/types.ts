// What each rule of the upgrade check reports, and the context a rule gets for one file.
import { UPGRADE_RULES, type UpgradeFinding, type UpgradeRule } from '../contract/upgrade';

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
  return { rule, file, line, message, fix, section: UPGRADE_RULES[rule].section, blocking, ...extra };
}

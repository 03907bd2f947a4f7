// Who the operator is: the desktop user the console runs as (the console is one person's
// desktop app; its HTTP token is the console's, not a person's). Never a browser's user agent.
import { userInfo } from 'node:os';

/** The desktop user's name, or the environment's, or `operator` when neither is known. */
export function desktopOperator(): string {
  try {
    const name = userInfo().username;
    if (name) return name;
  } catch (error) {
    // A user id with no passwd entry (some containers): fall back to the environment.
    if (!(error instanceof Error)) throw error;
  }
  return process.env.USER || process.env.USERNAME || 'operator';
}

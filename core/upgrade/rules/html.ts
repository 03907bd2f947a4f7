// HTML pages of custom applications: `<script src>` and `<link href>` (and any src/href) that
// point at the UI library's removed JavaScript under ui/lib/<library>/src (release notes 1.3).
// HTML comments are blanked first (keeping line breaks), so a commented-out tag is not reported.
import { finding, type Finding } from '../types';

const ATTRIBUTE = /\b(?:src|href|data-main)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const UI_LIB_SRC_JS = /(?:^|[^\w.-])ui\/lib\/([^/\s]+)\/src\/[^\s?#]*\.(?:js|mjs|cjs|jsx)(?:[?#]|$)/i;

export function checkHtml(file: string, text: string): Finding[] {
  const code = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
  const found: Finding[] = [];
  for (const match of code.matchAll(ATTRIBUTE)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    const lib = UI_LIB_SRC_JS.exec(value);
    if (!lib) continue;
    const line = code.slice(0, match.index).split('\n').length;
    found.push(
      finding({
        rule: 'ui-lib-src-js',
        file,
        line,
        message: `References "${value}", a JavaScript file under the UI library's src folder (ui/lib/${lib[1]}/src); 2022.1 removed those files to reduce size`,
        fix: 'Drop the reference, or bundle the code the page needs with the application itself; CSS under ui/lib/<library>/src is kept and may stay',
        blocking: true,
      }),
    );
  }
  return found;
}

import { describe, expect, it } from 'vitest';
import { checkCode } from '../../core/upgrade/rules/code';
import { checkShellText, mentionsNpmRunIndex } from '../../core/upgrade/rules/npm-index';
import { checkHtml } from '../../core/upgrade/rules/html';

const lines = (file: string, code: string, rule = 'api-call') =>
  checkCode(file, code)
    .filter((f) => f.rule === rule)
    .map((f) => f.line);

describe('API calls in code, read with the TypeScript parser', () => {
  it('finds a literal, a template literal, a concatenation and a constant', () => {
    const code = [
      "fetch('/admin/services/health');",
      'fetch(`${base}/admin/services/health?verbose=1`);',
      "request(base + '/admin/' + 'services/health/');",
      "const P = '/admin' + '/services';",
      'got(`${host}${P}/health`);',
    ].join('\n');
    expect(lines('a.js', code)).toEqual([1, 2, 3, 5]);
  });

  it('reports a constant where it is used, and where it is declared only when no use is found', () => {
    const used = "const HEALTH = '/admin/services/health';\nconst ALIAS = HEALTH;\nhttp.get(ALIAS);\n";
    expect(lines('b.js', used)).toEqual([3]);
    const exported = "export const HEALTH = 'http://localhost:3000/admin/services/health';\n";
    expect(lines('c.ts', exported)).toEqual([1]);
  });

  it('ignores comments, another method on the same path, other paths and TypeScript types', () => {
    const code = [
      '// GET /admin/services/health is gone',
      '/* fetch("/admin/services/health") */',
      "axios.post('/admin/services/health');",
      "fetch('/admin/services/health', { method: 'DELETE' });",
      "fetch('/admin/services/healthcheck');",
      "fetch('/health/applications');",
      "type Route = '/admin/services/health';",
    ].join('\n');
    expect(lines('d.ts', code)).toEqual([]);
  });

  it('does not guess a value that is not a constant of the file', () => {
    expect(lines('e.js', 'let p = "/admin/services/health"; p = "/health/adapters"; fetch(p);')).toEqual([1]);
    expect(lines('f.js', 'function f(part) { return fetch(`/admin/services/${part}`); }')).toEqual([]);
  });

  it('reads JSX and TSX', () => {
    const code = "export const A = () => <Poller url={'/admin/services/health'} />;\n";
    expect(lines('g.tsx', code)).toEqual([1]);
  });

  it('finds npm run index run from code, not from a comment', () => {
    const code = "// npm run index\nexecSync('cd app && npm run index');\n";
    expect(lines('h.js', code, 'npm-run-index')).toEqual([2]);
  });
});

describe('UI library files', () => {
  it('reports JavaScript under ui/lib/<library>/src, not CSS nor other folders', () => {
    const code = [
      "import 'ui/lib/a/src/a.js';",
      "import 'ui/lib/a/src/a.css';",
      "import 'ui/lib/a/dist/a.js';",
      "import x from '../ui/lib/b/src/b';",
      "const y = require('ui/lib/b/src/b.scss');",
      "export * from 'myui/lib/c/src/c.js';",
    ].join('\n');
    expect(lines('i.ts', code, 'ui-lib-src-js')).toEqual([1, 4]);
  });

  it('reads HTML src and href, skipping HTML comments', () => {
    const html = '<!-- <script src="/ui/lib/a/src/a.js"></script> -->\n<script src="ui/lib/a/src/a.js?v=2"></script>\n<link href="ui/lib/a/src/a.css">';
    expect(checkHtml('p.html', html).map((f) => f.line)).toEqual([2]);
  });
});

describe('npm run index in shell-like files', () => {
  it('matches the command with options, not other scripts', () => {
    expect(mentionsNpmRunIndex('npm run index')).toBe(true);
    expect(mentionsNpmRunIndex('npm --prefix /opt/app run-script index && echo ok')).toBe(true);
    expect(mentionsNpmRunIndex('npm run index:docs')).toBe(false);
    expect(mentionsNpmRunIndex('npm run indexer')).toBe(false);
    expect(mentionsNpmRunIndex('npm run build -- index')).toBe(false);
  });

  it('ignores comments but not a # inside quotes', () => {
    const script = '# npm run index\necho "#"; npm run index\nls # npm run index';
    expect(checkShellText('s.sh', script, 'shell script').map((f) => f.line)).toEqual([2]);
  });
});

// JavaScript and TypeScript of custom applications and adapters, read with TypeScript's parser.
// Every string the code builds (literals, template literals, concatenations, through `const`
// bindings in the same file) is checked; comments are never read. Reports calls to deprecated or
// removed APIs (9.1, 9.3), references to the UI library's removed JavaScript under
// `ui/lib/<library>/src/` (1.3), and `npm run index` run from code (4 rule 4).
import ts from 'typescript';
import { findApiRowInUrl, lifecycleAt, RUNNING_RELEASE, type LifecycleRow } from '../../release';
import { finding, type Finding } from '../types';
import { collectConstBindings, ConstStrings, UNKNOWN } from './const-strings';
import { mentionsNpmRunIndex, npmRunIndexFinding } from './npm-index';

const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
const UI_LIB_SRC = /(?:^|[^\w.-])ui\/lib\/([^/\s'"`?#]+)\/src\/([^\s'"`?#]*)/g;
const JS_FILE = /\.(js|mjs|cjs|jsx)$/i;

export const CODE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.tsx', '.mts', '.cts'];

function scriptKind(file: string): ts.ScriptKind {
  if (/\.tsx$/i.test(file)) return ts.ScriptKind.TSX;
  if (/\.(ts|mts|cts)$/i.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/i.test(file)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

interface Hit {
  finding: Finding;
  /** The `const` the string is the value of (reported there only when no use of it is reported). */
  owner?: string;
  bindings: Set<string>;
}

const shown = (text: string) => text.replaceAll(UNKNOWN, '…');

/** The text of a path or URL as a reader would see it in the report. */
function apiFinding(file: string, line: number, row: LifecycleRow, url: string): Finding | undefined {
  const life = lifecycleAt(row, RUNNING_RELEASE);
  if (life.state === 'active') return undefined;
  const replacements = life.replacements.map((r) => r.text);
  const fix = replacements.length ? `Call ${replacements.join(' or ')} instead` : 'Drop the call: the API has no replacement';
  const note = row.removalNote ? ` (${row.removalNote})` : '';
  const message =
    life.state === 'removed'
      ? `Calls ${row.item} ("${shown(url)}"), removed in ${life.removal}`
      : `Calls ${row.item} ("${shown(url)}"), deprecated since ${life.deprecated} and removed in ${life.removal}${note}; in ${RUNNING_RELEASE} it still answers, with Deprecation and Sunset headers`;
  return finding({ rule: 'api-call', file, line, message, fix, blocking: life.state === 'removed' });
}

function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) return true;
  if (ts.isCallExpression(parent) && parent.arguments[0] === node) {
    if (parent.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
    if (ts.isIdentifier(parent.expression) && parent.expression.text === 'require') return true;
  }
  return false;
}

/** The HTTP method of the call a string is passed to (`axios.post(url)`, `fetch(url, { method })`), if it says. */
function httpMethodFor(node: ts.Node, strings: ConstStrings): string | undefined {
  let current: ts.Node = node;
  while (
    current.parent &&
    (ts.isParenthesizedExpression(current.parent) ||
      ts.isPropertyAssignment(current.parent) ||
      ts.isShorthandPropertyAssignment(current.parent) ||
      ts.isObjectLiteralExpression(current.parent))
  ) {
    current = current.parent;
  }
  const call = current.parent;
  if (!call || !(ts.isCallExpression(call) || ts.isNewExpression(call))) return undefined;
  if (!call.arguments?.some((arg) => arg === current)) return undefined;
  if (ts.isPropertyAccessExpression(call.expression)) {
    const name = call.expression.name.text.toUpperCase();
    if (HTTP_METHODS.has(name)) return name;
  }
  for (const arg of call.arguments) {
    if (!ts.isObjectLiteralExpression(arg)) continue;
    for (const property of arg.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
      if (property.name.text !== 'method' && property.name.text !== 'type') continue;
      const value = strings.evaluate(property.initializer)?.value.toUpperCase();
      if (value && HTTP_METHODS.has(value)) return value;
    }
  }
  return undefined;
}

/** The `const` whose initializer (possibly inside an object or array literal) holds this node. */
function ownerBinding(node: ts.Node): string | undefined {
  let current: ts.Node = node;
  while (current.parent) {
    const parent = current.parent;
    if (ts.isVariableDeclaration(parent)) {
      const list = parent.parent;
      const isConst = ts.isVariableDeclarationList(list) && (list.flags & ts.NodeFlags.Const) !== 0;
      return isConst && parent.initializer === current && ts.isIdentifier(parent.name) ? parent.name.text : undefined;
    }
    if (
      ts.isParenthesizedExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSatisfiesExpression(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isObjectLiteralExpression(parent) ||
      ts.isArrayLiteralExpression(parent)
    ) {
      current = parent;
      continue;
    }
    return undefined;
  }
  return undefined;
}

/** An identifier or property read whose string value is used: passed, assigned, returned, put in a literal. */
function isValuePosition(node: ts.Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.some((arg) => arg === node)) return true;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return true;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) return true;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === node) return true;
  return ts.isArrayLiteralExpression(parent) || ts.isReturnStatement(parent) || ts.isJsxExpression(parent) || ts.isExportAssignment(parent);
}

export function checkCode(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const strings = new ConstStrings(collectConstBindings(source));
  const hits: Hit[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  const check = (node: ts.Node, expression: ts.Expression) => {
    const evaluation = strings.evaluate(expression);
    if (!evaluation) return;
    const { value, bindings } = evaluation;
    const line = lineOf(node);
    const owner = ownerBinding(node);
    const add = (f: Finding | undefined) => f && hits.push({ finding: f, owner, bindings });

    const tokens = value.split(/[\s'"`,;()<>[\]{}]+/).filter(Boolean);
    const method = httpMethodFor(node, strings);
    tokens.forEach((token, index) => {
      if (!token.includes('/')) return;
      const before = tokens[index - 1]?.toUpperCase();
      const row = findApiRowInUrl(method ?? (before && HTTP_METHODS.has(before) ? before : undefined), token);
      if (row) add(apiFinding(file, line, row, token));
    });

    for (const match of value.matchAll(UI_LIB_SRC)) {
      const rest = match[2] ?? '';
      const last = rest.split('/').pop() ?? '';
      const isJs = JS_FILE.test(last) || (isModuleSpecifier(node) && last !== '' && !last.includes('.'));
      if (!isJs) continue;
      const ref = shown(match[0].replace(/^[^u]/, ''));
      add(
        finding({
          rule: 'ui-lib-src-js',
          file,
          line,
          message: `${isModuleSpecifier(node) ? 'Imports' : 'References'} "${ref}", a JavaScript file under the UI library's src folder (ui/lib/${shown(match[1] ?? '')}/src); 2022.1 removed those files to reduce size`,
          fix: 'Drop the reference, or bundle the code the application needs with the application itself; CSS under ui/lib/<library>/src is kept and may stay',
          blocking: true,
        }),
      );
    }

    if (mentionsNpmRunIndex(value)) add(npmRunIndexFinding(file, line, 'Code'));
  };

  const visitStringParts = (node: ts.Expression) => {
    const parts = ts.isTemplateExpression(node)
      ? node.templateSpans.map((span) => span.expression)
      : ts.isBinaryExpression(node)
        ? [node.left, node.right]
        : [];
    for (const part of parts) {
      let inner = part;
      while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
      if (ts.isTemplateExpression(inner) || (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken)) {
        visitStringParts(inner);
      } else if (!ts.isStringLiteral(inner) && !ts.isNoSubstitutionTemplateLiteral(inner) && !ts.isIdentifier(inner)) {
        visit(inner);
      }
    }
  };

  const visit = (node: ts.Node): void => {
    // Types describe values; they make no calls.
    if (ts.isTypeNode(node) && !ts.isImportTypeNode(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      check(node, node);
      return;
    }
    if (ts.isTemplateExpression(node) || (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)) {
      if (strings.evaluate(node)) {
        check(node, node);
        visitStringParts(node);
        return;
      }
    }
    if ((ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && isValuePosition(node)) {
      check(node, node);
    }
    if (ts.isShorthandPropertyAssignment(node)) check(node, node.name);
    ts.forEachChild(node, visit);
  };
  visit(source);

  // A constant is reported where it is used; only a constant no reported use reads is reported where it is declared.
  const kept = hits.filter((hit) => !hit.owner || !hits.some((other) => other !== hit && other.bindings.has(hit.owner!)));
  const seen = new Set<string>();
  return kept
    .map((hit) => hit.finding)
    .filter((f) => {
      const key = `${f.rule}:${f.line}:${f.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

// JSON read with TypeScript's JSON parser, so every value keeps the line it is on.
// Paths are written as the profiles' `findLegacyActivate` writes them: `$`, `$.key`, `$[0]`.
import ts from 'typescript';

export interface JsonDoc {
  value: unknown;
  /** Line (1-based) of the value at a path; for an object member, the line of its key. */
  lines: Map<string, number>;
  lineOf(path: string): number;
}

/** Parses JSON (comments and trailing commas tolerated, as in tsconfig files); undefined when it is not JSON. */
export function parseJsonDoc(fileName: string, text: string): JsonDoc | undefined {
  const source = ts.parseJsonText(fileName, text);
  // parseDiagnostics is internal to TypeScript's JSON parser (not in its public types).
  const diagnostics: unknown = Reflect.get(source, 'parseDiagnostics');
  if (Array.isArray(diagnostics) && diagnostics.length > 0) return undefined;
  const statement = source.statements[0];
  if (!statement) return undefined;
  const lines = new Map<string, number>();
  const lineAt = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  const convert = (node: ts.Expression, path: string, line: number): unknown => {
    lines.set(path, line);
    if (ts.isObjectLiteralExpression(node)) {
      const out: Record<string, unknown> = {};
      for (const property of node.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const name = ts.isStringLiteral(property.name) || ts.isIdentifier(property.name) || ts.isNumericLiteral(property.name) ? property.name.text : undefined;
        if (name === undefined) continue;
        out[name] = convert(property.initializer, `${path}.${name}`, lineAt(property));
      }
      return out;
    }
    if (ts.isArrayLiteralExpression(node)) {
      return node.elements.map((element, index) => convert(element, `${path}[${index}]`, lineAt(element)));
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    return undefined;
  };

  const value = convert(statement.expression, '$', lineAt(statement.expression));
  return {
    value,
    lines,
    lineOf(path: string) {
      // The nearest enclosing path that has a line.
      for (let p = path; p; p = p.replace(/(\.[^.[\]]*|\[\d+\])$/, '')) {
        const line = lines.get(p);
        if (line !== undefined) return line;
        if (p === '$') break;
      }
      return 1;
    },
  };
}

/** The value at a path written as `$.a.b[0]`. */
export function valueAt(root: unknown, path: string): unknown {
  const steps = path.replace(/^\$/, '').match(/\.[^.[\]]+|\[\d+\]/g) ?? [];
  let node: unknown = root;
  for (const step of steps) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Reflect.get(node, step.startsWith('[') ? Number(step.slice(1, -1)) : step.slice(1));
  }
  return node;
}

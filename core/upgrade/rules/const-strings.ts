// The string value of an expression in JavaScript or TypeScript, as far as one file tells it:
// literals, template literals and `+` concatenations, through `const` bindings and properties of
// `const` object literals. Parts that cannot be known (a parameter, a call) become UNKNOWN.
import ts from 'typescript';

export const UNKNOWN = '\u0000';
const MAX_DEPTH = 12;

export interface Evaluation {
  value: string;
  /** Names of the `const` bindings the value was read through. */
  bindings: Set<string>;
}

/** `const` bindings of a file by name; a name declared more than once is left out (scope is not modelled). */
export function collectConstBindings(source: ts.SourceFile): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression | null>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const list = node.parent;
      const isConst = ts.isVariableDeclarationList(list) && (list.flags & ts.NodeFlags.Const) !== 0;
      const name = node.name.text;
      found.set(name, found.has(name) || !isConst ? null : node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out = new Map<string, ts.Expression>();
  for (const [name, init] of found) if (init) out.set(name, init);
  return out;
}

function unwrap(node: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  ) {
    node = node.expression;
  }
  return node;
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return undefined;
}

export class ConstStrings {
  constructor(private readonly bindings: Map<string, ts.Expression>) {}

  /** The string an expression evaluates to, or undefined when no part of it is a known string. */
  evaluate(expression: ts.Expression): Evaluation | undefined {
    const used = new Set<string>();
    const value = this.value(expression, used, 0);
    return value === undefined ? undefined : { value, bindings: used };
  }

  private value(expression: ts.Expression, used: Set<string>, depth: number): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const node = unwrap(expression);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      for (const span of node.templateSpans) text += (this.value(span.expression, used, depth + 1) ?? UNKNOWN) + span.literal.text;
      return text;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.value(node.left, used, depth + 1);
      const right = this.value(node.right, used, depth + 1);
      if (left === undefined && right === undefined) return undefined;
      return (left ?? UNKNOWN) + (right ?? UNKNOWN);
    }
    if (ts.isIdentifier(node)) {
      const init = this.bindings.get(node.text);
      if (!init) return undefined;
      const value = this.value(init, used, depth + 1);
      if (value !== undefined) used.add(node.text);
      return value;
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const key = ts.isPropertyAccessExpression(node)
        ? node.name.text
        : ts.isStringLiteral(node.argumentExpression) || ts.isNumericLiteral(node.argumentExpression)
          ? node.argumentExpression.text
          : undefined;
      const target = unwrap(node.expression);
      if (key === undefined || !ts.isIdentifier(target)) return undefined;
      const init = this.bindings.get(target.text);
      const object = init && unwrap(init);
      if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
      for (const property of object.properties) {
        if (ts.isPropertyAssignment(property) && propertyName(property.name) === key) {
          const value = this.value(property.initializer, used, depth + 1);
          if (value !== undefined) used.add(target.text);
          return value;
        }
      }
      return undefined;
    }
    return undefined;
  }
}

/**
 * Sizes the architecture test holds src/ to (STYLE.md: a file readable in one sitting, < 300 lines; a function
 * < 80 lines): lines per file, and the line span of every function, method, accessor, constructor and arrow
 * function, read with the TypeScript compiler's parser. An unnamed function is named by where it stands: the
 * variable, property or call it is handed to, inside the named functions around it.
 */
import ts from "typescript";

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 80;

/** Lines of a text; a final newline ends the last line rather than starting another. */
export const lineCount = (text: string) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

export interface FunctionSize {
  name: string;
  lines: number;
}

function nameOf(node: ts.Node): string | null {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)
  )
    return node.name ? node.name.getText() : null;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText();
  if (ts.isCallExpression(parent)) return `${parent.expression.getText().split("(")[0]!.slice(-40)}(…)`;
  return null;
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isGetAccessor(node) ||
  ts.isSetAccessor(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node);

/** Every function of a source text with a body, named `outer.inner` (an ordinal `#2` tells same names apart). */
export function functionSizes(fileName: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const sizes: FunctionSize[] = [];
  const seen = new Map<string, number>();
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node, outer: string[]) => {
    let path = outer;
    if (isFunction(node) && node.body) {
      path = [...outer, nameOf(node) ?? "(anonymous)"];
      let name = path.join(".");
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      if (n > 1) name += `#${n}`;
      sizes.push({ name, lines: lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1 });
    } else if (ts.isClassDeclaration(node) && node.name) path = [...outer, node.name.getText()];
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(source, []);
  return sizes;
}

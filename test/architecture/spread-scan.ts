/**
 * Finds spreads into call arguments (`f(...xs)`, `a.push(...xs)`, `Math.max(...xs)`, `new X(...xs)`) in TypeScript
 * source: each element becomes an argument on the stack, so an input-sized array overflows it (a 4.7 MB text's
 * 622k word boxes in `Math.max(...)` on serve's pipeline thread, issue 38). Rest parameters (`(...args) =>`,
 * `function f(...args)`) and array/object literal spreads are not calls and are not reported. Strings, template
 * literals and comments are skipped. A spread with `stack-safe:` and a reason on its line or within NEAR_LINES lines
 * above it is allowed.
 */
const NEAR_LINES = 6;
export interface SpreadHit {
  line: number;
  text: string;
}

/** Source with comments, strings and template literal text blanked out (newlines and `${…}` code kept). */
export function codeOnly(src: string): string {
  let out = "";
  let i = 0;
  const templates: number[] = []; // brace depth at which each open template's `${` started
  let depth = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  while (i < src.length) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === "/" && next === "/") {
      const end = src.indexOf("\n", i);
      const stop = end < 0 ? src.length : end;
      out += blank(src.slice(i, stop));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += blank(src.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      out += c + blank(src.slice(i + 1, j)) + c;
      i = j + 1;
    } else if (c === "`" || (c === "}" && templates.length > 0 && templates[templates.length - 1] === depth)) {
      if (c === "}") templates.pop(); // the end of a `${…}`: the template's text goes on
      let j = i + 1;
      while (j < src.length && src[j] !== "`" && !(src[j] === "$" && src[j + 1] === "{")) j += src[j] === "\\" ? 2 : 1;
      out += c + blank(src.slice(i + 1, j));
      if (src[j] === "$") {
        templates.push(depth);
        out += "${";
        i = j + 2;
      } else {
        out += "`";
        i = j + 1;
      }
    } else if (c === "/" && regexCanStart(out)) {
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== "\n" && (inClass || src[j] !== "/")) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j++;
      }
      out += "/" + blank(src.slice(i + 1, j)) + "/";
      i = j + 1;
    } else {
      if (c === "{") depth++;
      else if (c === "}") depth--;
      out += c;
      i++;
    }
  }
  return out;
}

/** A `/` starts a regex literal after an operator or opening bracket, not after a value. */
function regexCanStart(before: string): boolean {
  const t = before.trimEnd();
  if (!t) return true;
  const last = t[t.length - 1]!;
  if (/[(,=:[!&|?{};+\-*%<>~^]/.test(last)) return true;
  return /\b(return|typeof|case|in|of|yield|await)$/.test(t);
}

export function findCallSpreads(src: string): SpreadHit[] {
  const code = codeOnly(src);
  const lines = src.split("\n");
  const hits: SpreadHit[] = [];
  const stack: Array<{ ch: string; at: number }> = [];
  const closeOf = new Map<number, number>();
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === "(" || c === "[" || c === "{") stack.push({ ch: c, at: i });
    else if (c === ")" || c === "]" || c === "}") {
      const open = stack.pop();
      if (open) closeOf.set(open.at, i);
    }
  }
  stack.length = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === "(" || c === "[" || c === "{") stack.push({ ch: c, at: i });
    else if (c === ")" || c === "]" || c === "}") stack.pop();
    else if (c === "." && code.startsWith("...", i)) {
      const open = stack[stack.length - 1];
      i += 2;
      if (!open || open.ch !== "(") continue;
      const close = closeOf.get(open.at) ?? -1;
      const after = code.slice(close + 1).match(/^\s*(=>|\{|:)/);
      if (after) continue; // a rest parameter
      const line = code.slice(0, i).split("\n").length;
      const here = lines[line - 1] ?? "";
      // The formatter wraps long calls, so the reason may sit a few lines above the spread itself.
      const near = lines.slice(Math.max(0, line - 1 - NEAR_LINES), line).join("\n");
      if (/stack-safe:/.test(near)) continue;
      hits.push({ line, text: here.trim() });
    }
  }
  return hits;
}

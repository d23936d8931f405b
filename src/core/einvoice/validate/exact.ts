/**
 * Exact decimal arithmetic where fontoxpath is not exact. XPath defines xs:decimal arithmetic as exact and
 * xs:integer as unbounded (Saxon, the reference processor, implements both); fontoxpath keeps both in JavaScript
 * numbers. Two places in the official rules depend on the difference:
 *
 * - `sum()` of amounts compared without rounding (XRechnung BR-DEX-02: 193.70 + 48.75 + 93.34 = 335.79 exactly,
 *   but not in binary floating point). `sum(...)` is rewritten to docproc's sum, which adds the decimal digits
 *   exactly and returns the number nearest the exact result (what parsing the exact result would give).
 * - IBAN check digits (BR-DE-19/20): `xs:integer(<30 digits>) mod 97`. `xs:integer(X) mod N` and
 *   `xs:decimal(X) mod N` are rewritten to an exact BigInt remainder.
 *
 * The rewrite is textual but quote-aware (string literals are never touched) and changes no rule's meaning.
 */
import { registerCustomXPathFunction } from "fontoxpath";

const NS = "urn:docproc:xpath";
let registered = false;

function digits(v: unknown): { int: bigint; scale: number } | null {
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : String(v).trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === "" && !m[3])) return null;
  const frac = m[3] ?? "";
  return { int: BigInt(`${m[1]}${m[2] || "0"}${frac}`), scale: frac.length };
}

function exactSum(values: unknown[]): number {
  let total = 0n,
    scale = 0;
  for (const v of values) {
    if (typeof v === "number" && !Number.isFinite(v)) return values.reduce((a: number, b) => a + Number(b), 0);
    const d = digits(v);
    if (!d) throw new Error(`FORG0001: cannot add ${JSON.stringify(v)} as a number`);
    if (d.scale > scale) {
      total *= 10n ** BigInt(d.scale - scale);
      scale = d.scale;
    }
    total += d.int * 10n ** BigInt(scale - d.scale);
  }
  const neg = total < 0n;
  const s = (neg ? -total : total).toString().padStart(scale + 1, "0");
  return Number(`${neg ? "-" : ""}${s.slice(0, s.length - scale)}.${s.slice(s.length - scale) || "0"}`);
}

function intMod(value: string, modulus: number): number {
  const s = value.trim();
  if (!/^[+-]?\d+(\.0*)?$/.test(s))
    throw new Error(`FORG0001: cannot cast ${JSON.stringify(s.slice(0, 40))} to an integer`);
  return Number(BigInt(s.replace(/\.0*$/, "")) % BigInt(modulus));
}

export function registerExactFunctions(): void {
  if (registered) return;
  registered = true;
  registerCustomXPathFunction(
    { namespaceURI: NS, localName: "sum" },
    ["xs:anyAtomicType*"],
    "xs:double",
    (_c, values: unknown[]) => exactSum(values),
  );
  registerCustomXPathFunction(
    { namespaceURI: NS, localName: "int-mod" },
    ["xs:string?", "xs:integer"],
    "xs:integer",
    (_c, v: string | null, m: number) => intMod(v ?? "", m),
  );
}

/** Index of the parenthesis closing the one at `open`, skipping string literals; -1 if unbalanced. */
function closing(expr: string, open: number): number {
  let depth = 0,
    quote = "";
  for (let i = open; i < expr.length; i++) {
    const c = expr[i]!;
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/** The expression with `sum(` and `xs:integer(..) mod N` / `xs:decimal(..) mod N` made exact (see above). */
export function exactRewrite(expr: string): string {
  let out = "",
    quote = "";
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (quote) {
      out += c;
      if (c === quote) quote = "";
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      out += c;
      continue;
    }
    const before = i === 0 ? "" : expr[i - 1]!;
    if (/[\w:$.\-{}]/.test(before)) {
      out += c;
      continue;
    }
    if (expr.startsWith("sum(", i)) {
      out += `Q{${NS}}sum(`;
      i += 3;
      continue;
    }
    const cast = /^xs:(integer|decimal)\(/.exec(expr.slice(i, i + 12));
    if (cast) {
      const open = i + cast[0].length - 1;
      const end = closing(expr, open);
      const mod = end < 0 ? null : /^\s*mod\s*(\d+)/.exec(expr.slice(end + 1));
      if (mod) {
        out += `Q{${NS}}int-mod(string(${exactRewrite(expr.slice(open + 1, end))}), ${mod[1]})`;
        i = end + mod[0].length;
        continue;
      }
    }
    out += c;
  }
  return out;
}

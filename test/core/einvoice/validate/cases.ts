/**
 * The official unit tests of the vendored rule sets, read into cases: a document, the rule set it is for, and
 * what each named rule must do on it.
 *
 * - EN 16931 (vefa `<testSet>` files): each `<test>` holds one invoice fragment and an `<assert>` naming rules
 *   that must give `<success>` (no failure of that rule), `<warning>` (fails with flag warning) or `<error>`
 *   (fails with flag fatal).
 * - XRechnung instances carry xml-mutate instructions (`<?xmute mutator=".." schematron-valid="xrubl:BR-DE-1"
 *   schematron-invalid=".."?>`): each instruction makes one or more mutants of the document by changing the element
 *   after it (identity, remove, empty, code = each of `values` as its text or `attribute`, whitespace around the
 *   text; values are trimmed, as xml-mutate does); in each mutant the "valid" rules must not fire and the "invalid" ones must.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseXmlDocument, serializeToWellFormedString, type Document, type Element, type Node } from "slimdom";
import type { RuleSetId } from "../../../../src/core/einvoice/validate/rulesets";

export const RULES_DIR = join(import.meta.dir, "../../../../fixtures/corpora/einvoice-rules");
const VEFA = "http://difi.no/xsd/vefa/validator/1.0";

export interface Expect {
  rule_id: string;
  must: "pass" | "fire" | "warning" | "fatal";
}
export interface Case {
  name: string;
  ruleSet: RuleSetId;
  doc: Document;
  expect: Expect[];
}

export function en16931Cases(): Case[] {
  const out: Case[] = [];
  for (const [dir, ruleSet] of [
    ["Invoice-unit-UBL", "EN16931-UBL"],
    ["CreditNote-unit-UBL", "EN16931-UBL"],
    ["cii", "EN16931-CII"],
  ] as const) {
    const base = join(RULES_DIR, "en16931/test", dir);
    for (const f of readdirSync(base)
      .filter((n) => n.endsWith(".xml"))
      .sort()) {
      const set = parseXmlDocument(readFileSync(join(base, f), "utf8")).documentElement!;
      set.children
        .filter((c) => c.localName === "test")
        .forEach((test, i) => {
          const assert = test.children.find((c) => c.namespaceURI === VEFA && c.localName === "assert")!;
          const invoice = test.children.find((c) => c.namespaceURI !== VEFA)!;
          const expect = assert.children
            .filter((e) => ["success", "warning", "error"].includes(e.localName))
            .map(
              (e): Expect => ({
                rule_id: e.textContent!.trim(),
                must: e.localName === "success" ? "pass" : e.localName === "warning" ? "warning" : "fatal",
              }),
            );
          out.push({
            name: `${dir}/${f} test ${i + 1}`,
            ruleSet,
            doc: parseXmlDocument(serializeToWellFormedString(invoice)),
            expect,
          });
        });
    }
  }
  return out;
}

interface Instruction {
  attrs: Record<string, string>;
  index: number;
}

function instructions(doc: Document): Instruction[] {
  const out: Instruction[] = [];
  let index = 0;
  const walk = (n: Node) => {
    for (const c of n.childNodes) {
      if (c.nodeType === 7 && (c as any).target === "xmute")
        out.push({ attrs: piAttrs((c as any).data), index: index++ });
      else if (c.nodeType === 7) index++;
      if (c.nodeType === 1) walk(c);
    }
  };
  walk(doc);
  return out;
}

function piAttrs(data: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of data.matchAll(/([\w-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) attrs[m[1]!] = m[3] ?? m[4] ?? "";
  return attrs;
}

/** The document with its index-th processing instruction's target mutated (every xmute instruction removed). */
function mutant(text: string, index: number, apply: (target: Element) => void): Document {
  const doc = parseXmlDocument(text);
  const pis: Node[] = [];
  const walk = (n: Node) => {
    for (const c of n.childNodes) {
      if (c.nodeType === 7) pis.push(c);
      if (c.nodeType === 1) walk(c);
    }
  };
  walk(doc);
  let target: Node | null = pis[index]!.nextSibling;
  while (target && target.nodeType !== 1) target = target.nextSibling;
  if (!target) throw new Error(`xmute instruction ${index} has no element after it`);
  apply(target as Element);
  for (const pi of pis) if ((pi as any).target === "xmute") pi.parentNode?.removeChild(pi);
  return doc;
}

function mutations(ins: Instruction): Array<{ label: string; apply: (el: Element) => void }> {
  const a = ins.attrs;
  const attr = a.attribute;
  const setText = (el: Element, v: string) => {
    if (attr) el.setAttribute(attr, v);
    else el.textContent = v;
  };
  switch (a.mutator) {
    case "identity":
    case "noop":
      return [{ label: "identity", apply: () => {} }];
    case "remove":
      return [{ label: "remove", apply: (el) => (attr ? el.removeAttribute(attr) : el.parentNode!.removeChild(el)) }];
    case "empty":
      return [{ label: "empty", apply: (el) => setText(el, "") }];
    case "whitespace":
      return [
        {
          label: "whitespace",
          apply: (el) => setText(el, ` \n\t${attr ? el.getAttribute(attr) : el.textContent}\t\n `),
        },
      ];
    case "code":
      return (a.values ?? "")
        .split(a.separator || ",")
        .map((v) => v.trim())
        .filter((v) => v !== "")
        .map((v) => ({ label: `code ${JSON.stringify(v)}`, apply: (el: Element) => setText(el, v) }));
    default:
      throw new Error(`xmute mutator ${a.mutator} is not supported by this harness`);
  }
}

export function xrechnungCases(): Case[] {
  const out: Case[] = [];
  for (const dir of ["ubl-inv", "ubl-cn", "cii"]) {
    const ruleSet: RuleSetId = dir === "cii" ? "XRechnung-CII" : "XRechnung-UBL";
    const base = join(RULES_DIR, "xrechnung/test/instances", dir);
    for (const f of readdirSync(base)
      .filter((n) => n.endsWith(".xml"))
      .sort()) {
      const text = readFileSync(join(base, f), "utf8");
      for (const ins of instructions(parseXmlDocument(text))) {
        const ids = (k: string) =>
          (ins.attrs[k] ?? "")
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((s) => s.replace(/^[\w-]+:/, ""));
        const expect: Expect[] = [
          ...ids("schematron-valid").map((rule_id): Expect => ({ rule_id, must: "pass" })),
          ...ids("schematron-invalid").map((rule_id): Expect => ({ rule_id, must: "fire" })),
        ];
        if (!expect.length) continue;
        for (const m of mutations(ins)) {
          out.push({
            name: `${dir}/${f} #${ins.attrs.id ?? ins.index} ${m.label}`,
            ruleSet,
            doc: mutant(text, ins.index, m.apply),
            expect,
          });
        }
      }
    }
  }
  return out;
}

/**
 * Round trip (issue 35 item 4): every UBL and CII instance of the XRechnung test suite is read into the BT model and
 * written back in its own syntax and in the other one; reading the result gives the same BT values, BT by BT
 * (UBL → UBL, UBL → CII, CII → CII, CII → UBL). A second check does not trust the model: every text and attribute
 * value of the source must appear in the converted file, except the syntax's own constants and the non-EN 16931
 * elements listed in NOT_EN16931 (XRechnung extensions, UBL-only elements).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readEInvoiceModel } from "../../../src/core/einvoice/read";
import { buildTree, unorderedElements, writeEInvoice } from "../../../src/core/einvoice/write";
import { allDefs } from "../../../src/core/einvoice/bt-map";
import type { BtNode } from "../../../src/core/einvoice/model";
import { parseXml, type XNode } from "../../../src/core/einvoice/xml";

const ROOT = path.join(import.meta.dir, "../../../fixtures/corpora/einvoice-rules/xrechnung/test/instances");
const FILES = readdirSync(ROOT)
  .flatMap((sub) =>
    readdirSync(path.join(ROOT, sub))
      .filter((f) => f.endsWith(".xml"))
      .map((f) => path.join(ROOT, sub, f)),
  )
  .sort();

/** BT-by-BT list: `BG-25[2]/BT-131 = 10.00`, so a failure names the term that changed. */
function flatten(n: BtNode, prefix = "", out: string[] = []): string[] {
  for (const [k, v] of Object.entries(n.values)) out.push(`${prefix}${k} = ${v}`);
  for (const [g, list] of Object.entries(n.groups)) {
    // Instances are compared as a set: the schemas' element order may regroup them (CII ID before GlobalID).
    const inner = list.map((x) => flatten(x).sort().join(" | ")).sort();
    inner.forEach((s, i) => out.push(`${prefix}${g}[${i + 1}] { ${s} }`));
  }
  return out.sort();
}

function leaves(n: XNode, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  const p = `${at}/${n.name}`;
  if (n.text !== undefined) out.push([p, n.text]);
  for (const [k, v] of Object.entries(n.attrs)) out.push([`${p}/@${k}`, v]);
  for (const c of n.children) leaves(c, p, out);
  return out;
}

/** Syntax constants (code "VAT", date format 102, type codes of references) and elements EN 16931 has no term for. */
const NOT_EN16931 = [
  /\/@format$/,
  /TaxScheme\/ID/,
  /\/ID\/@schemeID$/,
  /ReferencedDocument\/TypeCode$/,
  /SpecifiedProcuringProject\/Name$/,
  /CardAccount\/NetworkID$/,
  /\/IncludedNote\/(Content|SubjectCode)$/,
  /^\/(Invoice|CreditNote)\/Note$/, // compared through the model (UBL "#code#text")
  /SubInvoiceLine/,
  /PrepaidPayment/,
  /CreditAccount/,
  /OrderLineReference\/OrderReference/,
  /PayerSpecifiedDebtorFinancialInstitution/, // XRechnung extensions, non-EN UBL
  /DefinedTradeContact\/DepartmentName$/, // BT-41 is the person or the department: with both, CII keeps the person
  /TaxTotalAmount\/@currencyID$/,
  /GrossPriceProductTradePrice\/BasisQuantity$/, // BT-149 is one base quantity for the gross and the net price
];
const dateless = (s: string) => s.replace(/^(\d{4})-?(\d{2})-?(\d{2})$/, "$1$2$3");

describe("e-invoice round trip on the XRechnung instances", () => {
  test("the corpus is there", () => {
    expect(FILES.length).toBeGreaterThan(300);
  });

  test("every file: same syntax and the other syntax give back every BT value", () => {
    const failures: string[] = [];
    let compared = 0;
    for (const file of FILES) {
      const model = readEInvoiceModel(readFileSync(file));
      if (!model) {
        failures.push(`${path.basename(file)}: not read`);
        continue;
      }
      const before = flatten(model.data);
      for (const syntax of ["UBL", "CII"] as const) {
        const after = flatten(readEInvoiceModel(writeEInvoice(model.data, syntax))!.data);
        const [had, has] = [new Set(before), new Set(after)];
        const lost = before.filter((x) => !has.has(x));
        const added = after.filter((x) => !had.has(x));
        if (lost.length || added.length)
          failures.push(
            `${path.basename(file)} ${model.syntax}→${syntax}: lost ${lost.join("; ")} added ${added.join("; ")}`,
          );
        compared += before.join("\n").split(" = ").length - 1;
      }
    }
    expect(failures).toEqual([]);
    // BT values compared over both target syntaxes (64,454 on this corpus: 354 files).
    expect(compared).toBeGreaterThan(60000);
  }, 120_000);

  test("every source value reaches the converted file (values the model might have missed)", () => {
    const missing = new Map<string, number>();
    for (const file of FILES) {
      const xml = readFileSync(file);
      const model = readEInvoiceModel(xml)!;
      const out = new Set(
        leaves(parseXml(writeEInvoice(model.data, model.syntax === "UBL" ? "CII" : "UBL")), "").map(([, v]) =>
          dateless(v),
        ),
      );
      for (const [p, v] of leaves(parseXml(xml), "")) {
        if (out.has(dateless(v)) || NOT_EN16931.some((r) => r.test(p))) continue;
        missing.set(p, (missing.get(p) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(missing)).toEqual({});
  }, 120_000);

  test("the terms the corpus carries cover most of the table", () => {
    const seen = new Set<string>();
    const visit = (n: BtNode) => {
      Object.keys(n.values).forEach((k) => seen.add(k));
      Object.entries(n.groups).forEach(([g, l]) => (seen.add(g), l.forEach(visit)));
    };
    for (const file of FILES) visit(readEInvoiceModel(readFileSync(file))!.data);
    const ids = allDefs().map((d) => d.def.id);
    const covered = ids.filter((id) => seen.has(id));
    expect(covered.length / ids.length).toBeGreaterThan(0.85);
  }, 60_000);

  test("written files keep the schema order: no element outside its parent's order list", () => {
    const unordered = new Set<string>();
    for (const file of FILES) {
      const model = readEInvoiceModel(readFileSync(file))!;
      for (const syntax of ["UBL", "CII"] as const)
        unorderedElements(buildTree(model.data, syntax), syntax).forEach((u) => unordered.add(`${syntax} ${u}`));
    }
    expect([...unordered]).toEqual([]);
  }, 60_000);

  test("a credit note stays a credit note in UBL and becomes type 381 in CII", () => {
    const file = FILES.find((f) => readFileSync(f, "utf8").includes("<CreditNote"));
    expect(file).toBeDefined();
    const model = readEInvoiceModel(readFileSync(file!))!;
    expect(model.credit).toBe(true);
    expect(writeEInvoice(model.data, "UBL")).toContain("<CreditNote ");
    expect(writeEInvoice(model.data, "UBL")).toContain("<cac:CreditNoteLine>");
    expect(writeEInvoice(model.data, "CII")).toContain(`<ram:TypeCode>${model.data.values["BT-3"]}</ram:TypeCode>`);
  });
});

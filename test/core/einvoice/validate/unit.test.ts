/**
 * The official unit tests of the vendored rule sets decide: every <success>/<warning>/<error> of the EN 16931 test
 * sets and every schematron-valid/-invalid of the XRechnung instances must agree with what docproc's engine says.
 * A rule the engine could not evaluate counts as a disagreement (listed with the reason).
 *
 * Only the rules a case names are evaluated (with the contexts before them, which claim nodes first): the
 * semantics of those rules are the same as in a full run, and the suite stays fast.
 */
import { describe, expect, test } from "bun:test";
import { runSchema } from "../../../../src/core/einvoice/validate/engine";
import { ruleSet } from "../../../../src/core/einvoice/validate/rulesets";
import { peppolUnevaluated, XRECHNUNG_PEPPOL_RULES } from "../../../../src/core/einvoice/validate/peppol";
import { en16931Cases, xrechnungCases, type Case } from "./cases";

/**
 * The XRechnung build adds adapted Peppol BIS Billing rules (PEPPOL-EN16931-R*) fetched at its build time; they are
 * not among the vendored rule files (OpenPeppol's Schematron is not to be had from npm or Debian), so their
 * assertions cannot be evaluated and count as disagreements. Each must be among the rules the validator lists as
 * not evaluated for an XRechnung invoice (peppol.ts), so no user takes them for passed.
 */
const NOT_VENDORED = /^PEPPOL-EN16931-R/;

function agreement(cases: Case[]): {
  agree: number;
  total: number;
  disagreements: string[];
  notVendored: number;
  notVendoredIds: Set<string>;
  absent: number;
} {
  let agree = 0,
    total = 0,
    notVendored = 0,
    absent = 0;
  const disagreements: string[] = [];
  const notVendoredIds = new Set<string>();
  for (const c of cases) {
    const run = runSchema(ruleSet(c.ruleSet), c.doc, new Set(c.expect.map((e) => e.rule_id)));
    for (const e of c.expect) {
      total++;
      const fired = run.results.filter((r) => r.rule_id === e.rule_id);
      const unevaluated = run.unevaluated.find((u) => u.rule_id === e.rule_id);
      const known = run.checked.includes(e.rule_id);
      if (!known && NOT_VENDORED.test(e.rule_id)) {
        notVendored++;
        notVendoredIds.add(e.rule_id);
        continue;
      }
      // A <success> on a rule the rule set no longer holds (BR-CO-25 in EN 16931 1.3.16) agrees: it cannot fire.
      if (!known && e.must === "pass") absent++;
      const ok =
        (known || e.must === "pass") &&
        !unevaluated &&
        (e.must === "pass"
          ? fired.length === 0
          : e.must === "fire"
            ? fired.length > 0
            : fired.some((r) => r.severity === e.must));
      if (ok) agree++;
      else
        disagreements.push(
          `${c.name}: ${e.rule_id} must ${e.must}, got ${!known ? "no such rule" : unevaluated ? `unevaluated (${unevaluated.reason})` : fired.map((r) => r.severity).join(",") || "pass"}`,
        );
    }
  }
  return { agree, total, disagreements, notVendored, notVendoredIds, absent };
}

describe("official unit tests", () => {
  test("EN 16931 (UBL Invoice, UBL CreditNote, CII): every assertion agrees", () => {
    const cases = en16931Cases();
    const r = agreement(cases);
    console.log(
      `EN 16931 unit tests: ${r.agree}/${r.total} assertions agree (${cases.length} test documents; ${r.absent} <success> on rules the rule set no longer has)`,
    );
    expect(r.total).toBeGreaterThan(1000);
    expect(r.disagreements).toEqual([]);
    expect(r.notVendored).toBe(0);
  }, 240_000);

  test("XRechnung CIUS (UBL, CII instances and their xmute mutants): every assertion agrees", () => {
    const cases = xrechnungCases();
    const r = agreement(cases);
    console.log(
      `XRechnung unit tests: ${r.agree}/${r.total} assertions agree (${cases.length} documents); ${r.notVendored} name Peppol rules that are not vendored (unevaluated, counted as disagreements)`,
    );
    expect(r.total).toBeGreaterThan(900);
    expect(r.disagreements).toEqual([]);
    expect(r.agree + r.notVendored).toBe(r.total);
    // Every Peppol rule the instances assert is listed as not evaluated, by id, for an XRechnung invoice.
    const listed = peppolUnevaluated("urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0");
    expect(listed.map((u) => u.rule_id)).toEqual(["PEPPOL-EN16931-R*"]);
    expect(listed[0]!.reason).toContain("Peppol BIS rules (artefacts unavailable)");
    for (const id of r.notVendoredIds) {
      const rule = id.replace(/^(PEPPOL-EN16931-R\d+).*/, "$1"); // R043-1 and R043-2 are assertions of R043
      expect(Object.keys(XRECHNUNG_PEPPOL_RULES)).toContain(rule);
      expect(listed[0]!.reason).toContain(rule.replace("PEPPOL-EN16931-", ""));
    }
  }, 240_000);
});

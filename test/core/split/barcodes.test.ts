/**
 * Separator-sheet splitting against paperless-ngx's own barcode samples and the page groups its tests assert
 * (fixtures/corpora/splitting/paperless-barcodes/splits.json). Real PDFs, real rendering, real barcode decoding.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { DocumentSpan } from "../../../src/core/model";
import { type SplitSettingsInput, SplitSettingsSchema } from "../../../src/core/project/split";
import { splitPages } from "../../../src/core/stages/split";
import { CORPORA, convertFile } from "./helpers";

const DIR = CORPORA + "splitting/paperless-barcodes/";

interface SplitCase {
  file: string;
  expected_documents_pages_0based: number[][];
  separator_pages_0based: Record<string, boolean>;
  paperless_settings: Record<string, unknown>;
  detection_only?: boolean;
  note: string;
}

const cases = (JSON.parse(readFileSync(DIR + "splits.json", "utf8")) as Array<SplitCase | { task: string }>).filter(
  (c): c is SplitCase =>
    typeof (c as SplitCase).file === "string" && Array.isArray((c as SplitCase).expected_documents_pages_0based),
);

/** Translates the paperless-ngx settings of a case into our separator settings. */
function settingsFor(c: SplitCase): SplitSettingsInput {
  const p = c.paperless_settings;
  const barcodes: NonNullable<NonNullable<SplitSettingsInput["separator"]>["barcodes"]> = [];
  let patchT = true;
  if (typeof p.barcode_string === "string") {
    barcodes.push({ value: p.barcode_string, keep: false });
    patchT = false; // paperless replaces PATCHT with the custom string
  }
  if (p.enable_asn_barcode) barcodes.push({ pattern: `^${p.asn_prefix as string}`, keep: true });
  if (p.tag_split && p.tag_mapping) {
    for (const key of Object.keys(p.tag_mapping as Record<string, string>)) {
      barcodes.push({ pattern: `^${key.replace(/\(\.\*\)$/, "")}`, keep: true });
    }
  }
  return { mode: "separator", separator: { patch_t: patchT, barcodes } };
}

const outcomes: Array<{ file: string; expected: number[][]; got: number[][]; ok: boolean; ms: number }> = [];

describe("separator sheets: paperless-ngx barcode samples", () => {
  test("the corpus holds the 19 separator-sheet cases", () => {
    expect(cases.length).toBe(19);
  });

  for (const c of cases) {
    test(`${c.file}: ${c.note}`, async () => {
      const t0 = performance.now();
      const pdf = await convertFile(DIR + c.file);
      const settings = SplitSettingsSchema.parse(settingsFor(c));
      let spans: DocumentSpan[];
      try {
        spans = await splitPages([{ index: 0, filename: c.file, policy: "inherit", pages: pdf.pages }], settings);
      } finally {
        await pdf.close();
      }
      const got = spans.map((s) => s.page_numbers.map((n) => n - 1));
      const ok = JSON.stringify(got) === JSON.stringify(c.expected_documents_pages_0based);
      outcomes.push({ file: c.file, expected: c.expected_documents_pages_0based, got, ok, ms: performance.now() - t0 });
      // Dropped separators are reported on the documents; kept ones are first pages.
      const dropped = Object.entries(c.separator_pages_0based)
        .filter(([, keep]) => !keep)
        .map(([i]) => Number(i) + 1);
      const reported = spans.flatMap((s) => s.separator_pages ?? []);
      if (ok && spans.length > 0) expect(reported).toEqual(dropped);
      for (const s of spans) expect(s.confidence).toBe(1);
    }, 120_000);
  }

  afterAll(() => {
    console.log("\nseparator-sheet cases (0-based page groups)");
    for (const o of outcomes) {
      console.log(
        `${o.ok ? "ok  " : "FAIL"} ${o.file.padEnd(36)} expected ${JSON.stringify(o.expected).padEnd(40)} got ${JSON.stringify(o.got)} ${o.ms.toFixed(0)} ms`,
      );
    }
    const passed = outcomes.filter((o) => o.ok).length;
    console.log(`${passed}/${outcomes.length} cases reproduce the expected page groups exactly`);
  });

  test("at least 17 of the 19 cases reproduce the expected page groups exactly", () => {
    expect(outcomes.length).toBe(19);
    expect(outcomes.filter((o) => o.ok).length).toBeGreaterThanOrEqual(17);
  });
});

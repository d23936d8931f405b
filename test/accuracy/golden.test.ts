/**
 * Golden results: `docproc process` (the real CLI, default project) on the sample inbox and a representative slice of
 * the corpora, each results file normalised (test/accuracy/golden.ts) and compared with fixtures/golden/<case>.json.
 * A change in what docproc reads shows as `path: expected → got` lines here, and, after
 * `UPDATE_FIXTURES=1 bun test test/accuracy/golden.test.ts`, as a readable diff of the golden files in review.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../support/process";
import { jsonDiff, normalizeResults } from "./golden";

const REPO = path.resolve(import.meta.dir, "../..");
const GOLDEN = path.join(REPO, "fixtures/golden");
const UPDATE = process.env.UPDATE_FIXTURES === "1";

/** Case name → file (relative to the repository). One of each kind of input and of each path through the pipeline. */
const CASES: Record<string, string> = {
  "inbox/born-digital-invoice": "fixtures/inbox/born-digital-invoice.pdf", // text layer + embedded UBL XML
  "inbox/scanned-invoice": "fixtures/inbox/scanned-invoice.pdf", // image-only PDF: OCR
  "inbox/multi-page-fax": "fixtures/inbox/multi-page-fax.tif", // multi-page TIFF: splitting
  "inbox/phone-photo": "fixtures/inbox/phone-photo.jpg", // photo of a receipt
  "inbox/rotated-scan-90": "fixtures/inbox/rotated-scan-90.png", // a quarter turn
  "invoice2data/coolblue1": "fixtures/corpora/invoice2data/coolblue1.pdf", // Dutch text PDF: VAT ID, IBAN
  "invoice2data/QualityHosting": "fixtures/corpora/invoice2data/QualityHosting.pdf", // two pages, German
  "invoice2data/Orlen": "fixtures/corpora/invoice2data/Orlen.txt", // supplied text, Polish
  "invoice2data/oyo": "fixtures/corpora/invoice2data/oyo.png", // upstream PNG scan: OCR
  "splitting/split-by-tag-basic": "fixtures/corpora/splitting/paperless-barcodes/split-by-tag-basic.pdf", // six pages, intelligent split
  "eval/two-documents": "fixtures/eval/two-documents.txt", // an invoice and a letter in one file
};

const out = mkdtempSync(path.join(os.tmpdir(), "docproc-golden-"));
const fresh = new Map<string, unknown>();

beforeAll(async () => {
  const files = Object.values(CASES);
  const run = await runCli(["process", ...files, "--out", out, "--json"], { timeoutMs: 600_000 });
  if (!run.stdout.trim().startsWith("{"))
    throw new Error(`docproc process gave no summary (exit ${run.code}): ${run.stderr.slice(0, 2000)}`);
  const summary = JSON.parse(run.stdout) as { files: Array<{ file: string; results_file?: string }> };
  for (const [name, file] of Object.entries(CASES)) {
    const entry = summary.files.find((f) => path.resolve(REPO, f.file) === path.resolve(REPO, file));
    if (!entry?.results_file) throw new Error(`${file}: no results file in the summary: ${JSON.stringify(entry)}`);
    fresh.set(name, normalizeResults(JSON.parse(readFileSync(entry.results_file, "utf8")), REPO));
  }
}, 600_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("golden results: a fresh run gives the recorded results files", () => {
  for (const name of Object.keys(CASES)) {
    test(name, () => {
      const file = path.join(GOLDEN, `${name}.json`);
      const got = fresh.get(name);
      if (UPDATE) {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(got, null, 2) + "\n");
      }
      if (!existsSync(file))
        throw new Error(
          `${path.relative(REPO, file)} is missing: record it with UPDATE_FIXTURES=1 bun test test/accuracy/golden.test.ts`,
        );
      const diff = jsonDiff(JSON.parse(readFileSync(file, "utf8")), got);
      if (diff.length)
        console.log(
          `${name}: ${diff.length} difference(s) from ${path.relative(REPO, file)} (UPDATE_FIXTURES=1 rewrites it)\n${diff
            .slice(0, 60)
            .map((d) => `  ${d}`)
            .join("\n")}`,
        );
      expect(diff).toEqual([]);
    });
  }
});

/**
 * `--name-by source` (issue 17, item 7): results named after the source (`<stem>.json`, `<stem>.csv`,
 * `<stem>_0.pdf`) for people who browse the output folder. Sources with the same stem (other subfolders, other
 * extensions) never overwrite each other: the first in the file list keeps the stem, the next get `_1`, `_2`; the same
 * file run again gets its own name back; new content at a path gets a new name. The PDF default
 * (`{source_stem}_{document_index}.pdf`) follows the same rule without the flag.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { OutputNames, ownerOf } from "../../src/batch/output-names";
import { ROOT, runCli } from "../support/process";
import { removeAll, tempDir } from "../support/temp";
import { WatchProc, setupWatch } from "../batch/watch-helpers";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

async function textPdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([420, 595]);
  text.split("\n").forEach((line, i) => page.drawText(line, { x: 30, y: 560 - i * 14, size: 10, font }));
  return pdf.save();
}

const eml = (body: string) =>
  [
    "From: Billing <billing@example.com>",
    "To: ap@example.com",
    "Subject: Invoice",
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\r\n");

describe("claims in the output folder", () => {
  test("same stem from other folders, extensions or letter case gets _1, _2; its owner gets its name back", () => {
    const out = tempDir("names", cleanup);
    const names = new OutputNames(out);
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(names.claim("/in/a/scan.pdf", ownerOf("/in/a/scan.pdf", bytes("A")))).toBe("scan");
    expect(names.claim("/in/b/scan.pdf", ownerOf("/in/b/scan.pdf", bytes("B")))).toBe("scan_1");
    expect(names.claim("/in/scan.tif", ownerOf("/in/scan.tif", bytes("C")))).toBe("scan_2");
    expect(names.claim("/in/c/SCAN.pdf", ownerOf("/in/c/SCAN.pdf", bytes("D")))).toBe("SCAN_3");
    // A file whose own stem looks like a suffixed one takes the next free name as well.
    expect(names.claim("/in/scan_4.pdf", ownerOf("/in/scan_4.pdf", bytes("E")))).toBe("scan_4");
    expect(names.claim("/in/d/scan.pdf", ownerOf("/in/d/scan.pdf", bytes("F")))).toBe("scan_5");
    // The same content at the same path: its name again (a restart, a re-run); new content there: a new name.
    expect(names.claim("/in/b/scan.pdf", ownerOf("/in/b/scan.pdf", bytes("B")))).toBe("scan_1");
    expect(new OutputNames(out).claim("/in/a/scan.pdf", ownerOf("/in/a/scan.pdf", bytes("A")))).toBe("scan");
    expect(names.claim("/in/a/scan.pdf", ownerOf("/in/a/scan.pdf", bytes("A2")))).toBe("scan_6");
    // Stems are made safe and literal.
    expect(names.claim("/in/{transaction_id}.pdf", "x")).toBe("_transaction_id_");
    expect(names.claim("/in/CON.pdf", "y")).toBe("_CON");
  });
});

describe("docproc process --name-by source", () => {
  test("<stem>.json/.csv/_0.pdf per source; same stems never overwrite; a re-run reuses the names; changed content gets a new one", async () => {
    const root = tempDir("name-by", cleanup);
    const inbox = path.join(root, "inbox");
    const out = path.join(root, "out");
    mkdirSync(path.join(inbox, "a"), { recursive: true });
    mkdirSync(path.join(inbox, "b"), { recursive: true });
    copyFileSync(path.join(ROOT, "fixtures/inbox/born-digital-invoice.pdf"), path.join(inbox, "a", "invoice.pdf"));
    writeFileSync(
      path.join(inbox, "b", "invoice.pdf"),
      await textPdf("INVOICE\nInvoice number: B-2041\nDate: 2026-11-20\nTotal: 99.00 EUR"),
    );
    writeFileSync(path.join(inbox, "invoice.eml"), eml("Invoice number: E-77\nTotal due: 12.50 EUR"));

    const run = async () => {
      const r = await runCli(
        [
          "process",
          inbox,
          "--out",
          out,
          "--name-by",
          "source",
          "--format",
          "json,csv,pdf",
          "--json",
          "--concurrency",
          "3",
        ],
        { timeoutMs: 120_000 },
      );
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as {
        files: Array<{ file: string; transaction_id: string; results_file: string; exports: string[] }>;
      };
    };
    const first = await run();
    // The file list's order (sorted walk) decides the suffixes, whatever finished first.
    expect(first.files.map((f) => path.relative(inbox, f.file))).toEqual([
      "a/invoice.pdf",
      "b/invoice.pdf",
      "invoice.eml",
    ]);
    const bases = ["invoice", "invoice_1", "invoice_2"];
    first.files.forEach((f, i) => {
      expect(path.basename(f.results_file)).toBe(`${bases[i]}.json`);
      expect(f.exports.map((e) => path.basename(e)).sort()).toEqual([
        `${bases[i]}.csv`,
        `${bases[i]}.json`,
        `${bases[i]}_0.pdf`,
      ]);
      // Each results file is about its own source.
      const results = JSON.parse(readFileSync(f.results_file, "utf8"));
      expect(results.transaction_id).toBe(f.transaction_id);
      expect(results.transaction.metadata.source_path).toBe(path.resolve(f.file));
    });
    const visible = () =>
      readdirSync(out)
        .filter((n) => !n.startsWith("."))
        .sort();
    expect(visible()).toEqual(bases.flatMap((b) => [`${b}.csv`, `${b}.json`, `${b}_0.pdf`]).sort());

    // Run again: the same files replace their own results under the same names.
    const second = await run();
    second.files.forEach((f, i) => expect(path.basename(f.results_file)).toBe(`${bases[i]}.json`));
    expect(visible()).toHaveLength(9);
    expect(JSON.parse(readFileSync(path.join(out, "invoice_1.json"), "utf8")).transaction_id).toBe(
      second.files[1]!.transaction_id,
    );

    // New content at b/invoice.pdf: a name of its own; the earlier results stay as they were.
    const before = readFileSync(path.join(out, "invoice_1.json"), "utf8");
    writeFileSync(
      path.join(inbox, "b", "invoice.pdf"),
      await textPdf("INVOICE\nInvoice number: B-2042\nTotal: 100.00 EUR"),
    );
    const third = await run();
    expect(path.basename(third.files[1]!.results_file)).toBe("invoice_3.json");
    expect(readFileSync(path.join(out, "invoice_1.json"), "utf8")).toBe(before);
  }, 240_000);

  test("without the flag: <transaction_id>_data.json, and the PDF default of two same-stem sources does not collide", async () => {
    const root = tempDir("name-by-default", cleanup);
    const inbox = path.join(root, "inbox");
    const out = path.join(root, "out");
    mkdirSync(path.join(inbox, "a"), { recursive: true });
    mkdirSync(path.join(inbox, "b"), { recursive: true });
    writeFileSync(path.join(inbox, "a", "scan.pdf"), await textPdf("Letter A\nfirst source"));
    writeFileSync(path.join(inbox, "b", "scan.pdf"), await textPdf("Letter B\nsecond source"));
    const r = await runCli(["process", inbox, "--out", out, "--format", "json,pdf", "--json", "--concurrency", "2"], {
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(0);
    const files = (
      JSON.parse(r.stdout) as { files: Array<{ transaction_id: string; results_file: string; exports: string[] }> }
    ).files;
    expect(files.map((f) => path.basename(f.results_file))).toEqual(files.map((f) => `${f.transaction_id}_data.json`));
    const pdfs = files.map((f) => path.basename(f.exports.find((e) => e.endsWith(".pdf"))!));
    expect(pdfs).toEqual(["scan_0.pdf", "scan_1_0.pdf"]);
    for (const p of pdfs) expect(existsSync(path.join(out, p))).toBe(true);
    const texts = pdfs.map((p) => Bun.spawnSync(["pdftotext", path.join(out, p), "-"]).stdout.toString());
    expect(texts[0]).toContain("Letter A");
    expect(texts[1]).toContain("Letter B");
  }, 180_000);
});

test("docproc watch --name-by source: files taken from two subfolders with one stem get <stem>.json and <stem>_1.json", async () => {
  const s = await setupWatch(cleanup, { defaultProject: true });
  mkdirSync(path.join(s.inbox, "north"), { recursive: true });
  mkdirSync(path.join(s.inbox, "south"), { recursive: true });
  writeFileSync(path.join(s.inbox, "north", "report.pdf"), await textPdf("North office\nmonthly report"));
  const w = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "1", "--keep", "--name-by", "source"]));
  try {
    await w.waitFor((ev) => ev.filter((e) => e.event === "done").length === 1, 60_000, "the first file");
    writeFileSync(path.join(s.inbox, "south", "report.pdf"), await textPdf("South office\nmonthly report"));
    await w.waitFor((ev) => ev.filter((e) => e.event === "done").length === 2, 60_000, "the second file");
  } finally {
    expect(await w.stop()).toBe(0);
  }
  const done = w.of("done");
  expect(done.map((e) => path.basename(e.results_file as string))).toEqual(["report.json", "report_1.json"]);
  expect(JSON.parse(readFileSync(path.join(s.out, "report.json"), "utf8")).transaction.metadata.folder).toBe("north");
  expect(JSON.parse(readFileSync(path.join(s.out, "report_1.json"), "utf8")).transaction.metadata.folder).toBe("south");
}, 150_000);

/**
 * The work behind `docproc validate`: every e-invoice among the given files and folders (standalone .xml, or the
 * XML attached to a ZUGFeRD/Factur-X PDF) checked with core/einvoice/validate; a table per file, or JSON.
 * Exit code 1 when any file has a fatal rule (a file that cannot be read counts as fatal); 2 for usage errors.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../core/errors";
import { readEInvoice } from "../core/extract/einvoice";
import { validateEInvoice, type EInvoiceReport } from "../core/einvoice/validate";
import { paintFor } from "./colour";
import { renderTable } from "./table";
import { pushAll } from "../core/arrays";

export interface ValidateOptions {
  paths: string[];
  json?: boolean;
  cius?: "auto" | "none";
}

/** One file's outcome: a report, or why there is none (no e-invoice in a PDF, an unreadable file). */
export interface ValidationOutcome {
  file: string;
  einvoice?: string;
  report?: EInvoiceReport;
  status: "valid" | "invalid" | "no-einvoice" | "error";
  error?: string;
}

const WANTED = /\.(xml|pdf)$/i;

async function collect(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (WANTED.test(e.name)) out.push(p);
    }
  };
  for (const p of paths) {
    const s = await stat(p).catch(() => null);
    if (!s) throw new DocprocError("invalid_input", `${p}: no such file or folder`);
    if (s.isDirectory()) await walk(p);
    else out.push(p);
  }
  return out;
}

/** The e-invoice XML of a file: the file itself, or the attachment of a PDF that extraction would read. */
async function einvoiceOf(file: string, data: Uint8Array): Promise<{ name: string; xml: Uint8Array } | null> {
  if (!/\.pdf$/i.test(file) && !/^%PDF-/.test(new TextDecoder().decode(data.subarray(0, 5))))
    return { name: path.basename(file), xml: data };
  const { convertSource } = await import("../core/stages/convert");
  const converted = await convertSource(
    { index: 0, filename: path.basename(file), data, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: 1 },
  );
  try {
    const attachments = converted.attachments ?? [];
    const read = readEInvoice(attachments);
    const a = read && attachments.find((x) => x.filename === read.filename);
    return a ? { name: a.filename, xml: a.data } : null;
  } finally {
    await converted.close();
  }
}

export async function validateFiles(opts: ValidateOptions): Promise<ValidationOutcome[]> {
  if (!opts.paths.length)
    throw new DocprocError(
      "invalid_input",
      "give one or more e-invoice files or folders: docproc validate invoice.xml",
    );
  const outcomes: ValidationOutcome[] = [];
  for (const file of await collect(opts.paths)) {
    try {
      const found = await einvoiceOf(file, new Uint8Array(await readFile(file)));
      if (!found) {
        outcomes.push({ file, status: "no-einvoice" });
        continue;
      }
      const report = await validateEInvoice(found.xml, { cius: opts.cius ?? "auto" });
      outcomes.push({
        file,
        einvoice: found.name === path.basename(file) ? undefined : found.name,
        report,
        status: report.valid ? "valid" : "invalid",
      });
    } catch (err) {
      outcomes.push({ file, status: "error", error: (err as Error).message });
    }
  }
  return outcomes;
}

export function renderOutcomes(outcomes: ValidationOutcome[], paint = paintFor(process.stdout)): string {
  const parts: string[] = [];
  for (const o of outcomes) {
    const label =
      o.status === "valid"
        ? paint.green("VALID")
        : o.status === "invalid"
          ? paint.red("INVALID")
          : o.status === "error"
            ? paint.red("ERROR")
            : paint.yellow("NO E-INVOICE");
    const r = o.report;
    const what = r
      ? ` — ${r.syntax}${o.einvoice ? ` (${o.einvoice})` : ""}${r.customization ? `, ${r.customization}` : ""}; rule sets: ${r.ruleSets.join(", ")}`
      : o.error
        ? ` — ${o.error}`
        : "";
    parts.push(`${paint.bold(o.file)}: ${label}${what}`);
    if (r?.results.length) {
      const order = { fatal: 0, warning: 1, information: 2 };
      const rows = [...r.results]
        .sort((a, b) => order[a.severity] - order[b.severity])
        .map((x) => [x.severity, x.rule_id, x.xpath, x.message]);
      parts.push(renderTable(["severity", "rule", "where", "message"], rows).trimEnd());
    }
    if (r?.unevaluated.length)
      pushAll(
        parts,
        r.unevaluated.map((u) => `  not evaluated: ${u.rule_id}: ${u.reason}`),
      );
    parts.push("");
  }
  const bad = outcomes.filter((o) => o.status === "invalid" || o.status === "error").length;
  parts.push(
    `${outcomes.length} file(s): ${outcomes.filter((o) => o.status === "valid").length} valid, ${bad} invalid or unreadable, ${outcomes.filter((o) => o.status === "no-einvoice").length} without an e-invoice`,
  );
  return parts.join("\n") + "\n";
}

export async function runValidate(opts: ValidateOptions): Promise<number> {
  const outcomes = await validateFiles(opts);
  process.stdout.write(opts.json ? JSON.stringify({ files: outcomes }, null, 2) + "\n" : renderOutcomes(outcomes));
  return outcomes.some((o) => o.status === "invalid" || o.status === "error") ? 1 : 0;
}

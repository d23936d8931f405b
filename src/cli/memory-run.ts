/**
 * The work behind `docproc memory`. The project file is read with the normal loader (so a bad file is exit 4) and
 * rewritten in its own format with only the `memory` key changed (YAML comments kept), after a backup to FILE.bak.
 * `learn` into a file that does not exist yet starts from the default project and creates the file (memory only).
 */
import { existsSync } from "node:fs";
import { copyFile, readFile, rename, writeFile } from "node:fs/promises";
import { cpuCount } from "../core/cores";
import path from "node:path";
import YAML from "yaml";
import { createOcrEngine, lazyOcrEngine } from "../core/engines/ocr";
import { DocprocError } from "../core/errors";
import { memorySink } from "../core/exporters";
import { learnFromExpected, learnFromReview } from "../core/memory/from-results";
import type { ReviewFinishedHook } from "../core/stages/review/hooks";
import { mergeMemories, sameIssuer } from "../core/memory/merge";
import { summaryOf, type Memory } from "../core/project/memory";
import { processTransaction } from "../core/pipeline";
import { defaultProject, loadProjectFile, type ProjectSettings } from "../core/project";
import { parseExpected } from "../eval/folder";
import { renderTable } from "./table";

export interface MemoryOptions {
  action: "learn" | "list" | "show" | "forget";
  target?: string;
  project: string;
  expected?: string;
  json?: boolean;
  ocrEngine?: "auto" | "wasm" | "native";
}

export async function runMemory(opts: MemoryOptions): Promise<number> {
  const creating = opts.action === "learn" && !existsSync(opts.project);
  const project = creating ? defaultProject : await loadProjectFile(opts.project);
  const out = (s: string) => process.stdout.write(s);
  if (opts.action === "list") return printList(project, opts, out);
  const id = opts.target;
  if (opts.action === "show" || opts.action === "forget") {
    const m = id ? project.memory.find((x) => x.memory_id === id) : undefined;
    if (!m)
      throw new DocprocError(
        "invalid_input",
        `${opts.project} has no memory ${id ?? "(give its id)"}; see docproc memory list --project ${opts.project}`,
      );
    if (opts.action === "show") {
      out(JSON.stringify(m, null, 2) + "\n");
      return 0;
    }
    await writeMemory(
      opts.project,
      project.memory.filter((x) => x !== m),
    );
    out(`forgot ${m.memory_id}; wrote ${opts.project} (previous version: ${opts.project}.bak)\n`);
    return 0;
  }
  if (!id || !opts.expected) throw new DocprocError("invalid_input", "learn needs a document and --expected FILE");
  let expected;
  try {
    expected = parseExpected(JSON.parse(await readFile(opts.expected, "utf8")));
  } catch (err) {
    throw new DocprocError("invalid_input", `--expected ${opts.expected}: ${(err as Error).message}`);
  }
  const learned = await learnFromDocument(id, expected, project, opts);
  if (!learned.length)
    throw new DocprocError(
      "invalid_input",
      `${id}: none of the expected values is printed on the document; nothing learned`,
    );
  const after = mergeMemories(project.memory, learned);
  await writeMemory(opts.project, after);
  for (const m of learned) {
    const issuer = m.issuer.vat_ids[0] ?? m.issuer.ibans[0] ?? m.issuer.names[0] ?? m.issuer.name ?? "by layout";
    // A further confirmation of a known issuer refines its memory (core/memory/merge.ts) rather than adding one.
    const into = after.some((x) => x.memory_id === m.memory_id) ? null : after.find((x) => sameIssuer(x, m));
    if (into)
      out(
        `refined ${into.memory_id} (${m.class_id}; ${into.confirmations} confirmations; fields ${Object.keys(into.fields).join(", ")}; issuer ${issuer})\n`,
      );
    else out(`learned ${m.memory_id} (${m.class_id}; fields ${Object.keys(m.fields).join(", ")}; issuer ${issuer})\n`);
  }
  out(
    creating
      ? `created ${opts.project} (the default project with these memories)\n`
      : `wrote ${opts.project} (previous version: ${opts.project}.bak)\n`,
  );
  return 0;
}

/** `docproc memory list`: the project's memories as a table, or JSON with --json. */
function printList(project: ProjectSettings, opts: MemoryOptions, out: (s: string) => void): number {
  const items = project.memory.map(summaryOf);
  if (opts.json) out(JSON.stringify({ items }, null, 2) + "\n");
  else if (!items.length) out(`${opts.project}: no memories\n`);
  else
    out(
      renderTable(
        ["memory_id", "class", "confirmed", "source", "issuer", "fields"],
        items.map((m) => [
          m.memory_id,
          m.class_id,
          m.confirmed_at.slice(0, 10),
          m.source,
          m.issuer.vat_ids[0] ?? m.issuer.ibans[0] ?? m.issuer.name ?? "-",
          String(m.fields.length),
        ]),
      ),
    );
  return 0;
}

/** Runs the document through the pipeline and learns what `expected` says is printed on it. */
async function learnFromDocument(
  id: string,
  expected: ReturnType<typeof parseExpected>,
  project: ProjectSettings,
  opts: MemoryOptions,
): Promise<Memory[]> {
  const data = new Uint8Array(
    await readFile(id).catch(() => {
      throw new DocprocError("invalid_input", `no such file: ${id}`);
    }),
  );
  const ocr = lazyOcrEngine(() => createOcrEngine({ engine: opts.ocrEngine ?? "auto", workers: cpuCount() }));
  try {
    const now = new Date();
    const r = await processTransaction(
      {
        sources: [
          {
            index: 0,
            filename: path.basename(id),
            data,
            split_policy: "inherit",
            content_type: /\.txt$/i.test(id) ? "text/plain" : undefined,
          },
        ],
      },
      {
        meta: {
          transaction_id: crypto.randomUUID(),
          tenant_id: "local",
          project_id: "default",
          project_version: 1,
          correlation_id: null,
          metadata: {},
          created_at: now.toISOString(),
          source: "cli",
        },
        project,
        ocr,
        sink: memorySink(),
        profiles: [],
      },
    );
    return learnFromExpected(r.results, expected, project, now).map((m) => ({ ...m, source: "cli" as const }));
  } finally {
    await ocr.close();
  }
}

/** `docproc review --project FILE`: a finished review's confirmed fields are added to the file's memories. */
export function learnIntoProjectFile(file: string): ReviewFinishedHook {
  return async (event) => {
    const project = await loadProjectFile(file);
    const learned = learnFromReview(event.results, project, "review", new Date(event.finished_at));
    if (learned.length) await writeMemory(file, mergeMemories(project.memory, learned));
  };
}

async function writeMemory(file: string, memory: Memory[]): Promise<void> {
  const existed = existsSync(file);
  const text = existed ? await readFile(file, "utf8") : /\.json$/i.test(file) ? "{}" : "";
  let body: string;
  if (/\.json$/i.test(file)) body = JSON.stringify({ ...JSON.parse(text), memory }, null, 2) + "\n";
  else {
    const doc = YAML.parseDocument(text);
    doc.set("memory", memory);
    body = doc.toString();
  }
  if (existed) await copyFile(file, `${file}.bak`);
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, body);
  await rename(tmp, file);
}

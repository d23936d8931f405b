/**
 * `docproc process` read without the command framework. oclif with the other commands' modules is ~140 modules and
 * 50-75 ms of CPU of every start, a sixth of a one-page run (issue 34). This reads what such a run is usually given
 * (paths, and the command's own flags written once each as `--flag value` or `--flag=value` with a valid value) and
 * returns null for anything else: help, `--`, a short, unknown, repeated or misspelt flag, a value oclif would refuse
 * or read differently, a flag that needs or excludes another. Those go through oclif as before (src/commands/
 * process.ts), so its parsing and its messages stay the only ones users see for them.
 *
 * Contract: whenever `parseProcessArgs` returns flags, they MUST be exactly what ProcessCommand's oclif parse gives
 * for the same words (test/cli/process-args.test.ts compares the two on many argument lists, and PROCESS_FLAGS with
 * the command's flag definitions). This module MUST NOT import oclif or the pipeline.
 */
import type { ProcessOptions } from "./process-run";

/** One flag of `docproc process` as oclif defines it (src/commands/process.ts); `default` as oclif fills it in. */
export type ProcessFlag =
  | { type: "boolean" }
  | { type: "string"; options?: readonly string[]; default?: string }
  | { type: "integer"; min: number; max?: number };

/** The flags of `docproc process`. `force` needs `data`; `quiet` and `verbose` exclude each other (checked below). */
export const PROCESS_FLAGS: Readonly<Record<string, ProcessFlag>> = {
  project: { type: "string" },
  out: { type: "string", default: "./docproc-out" },
  concurrency: { type: "integer", min: 1, max: 64 },
  "page-limit": { type: "integer", min: 1 },
  password: { type: "string" },
  json: { type: "boolean" },
  format: { type: "string" },
  "ocr-engine": { type: "string", options: ["auto", "wasm", "native"] },
  data: { type: "string" },
  force: { type: "boolean" },
  "name-by": { type: "string", options: ["transaction", "source"], default: "transaction" },
  quiet: { type: "boolean" },
  verbose: { type: "boolean" },
};

export type ProcessFlagValues = Record<string, string | number | boolean>;

/** The paths and flags of `docproc process <words>`, or null when oclif must read them (see the module comment). */
export function parseProcessArgs(words: string[]): { argv: string[]; flags: ProcessFlagValues } | null {
  const argv: string[] = [];
  const flags: ProcessFlagValues = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-")) {
      argv.push(word);
      continue;
    }
    if (!word.startsWith("--") || word === "--") return null;
    const eq = word.indexOf("=");
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    const flag = Object.hasOwn(PROCESS_FLAGS, name) ? PROCESS_FLAGS[name]! : null;
    if (!flag || Object.hasOwn(flags, name)) return null;
    if (flag.type === "boolean") {
      if (eq >= 0) return null;
      flags[name] = true;
      continue;
    }
    const value = eq < 0 ? words[++i] : word.slice(eq + 1);
    // A missing or empty value, or one that looks like a flag: oclif decides (and explains) what it means.
    if (value === undefined || value === "" || value.startsWith("-")) return null;
    if (flag.type === "integer") {
      const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
      if (!(n >= flag.min && n <= (flag.max ?? Number.MAX_SAFE_INTEGER))) return null;
      flags[name] = n;
    } else {
      if (flag.options && !flag.options.includes(value)) return null;
      flags[name] = value;
    }
  }
  if (argv.length === 0 || (flags.force && flags.data === undefined) || (flags.quiet && flags.verbose)) return null;
  for (const [name, flag] of Object.entries(PROCESS_FLAGS))
    if (flag.type === "string" && flag.default !== undefined) flags[name] ??= flag.default;
  // oclif orders the paths by where each first appears among the words (a path given twice comes out side by side).
  return { argv: argv.sort((a, b) => words.indexOf(a) - words.indexOf(b)), flags };
}

/** The options of runProcess from the parsed paths and flags (oclif's or parseProcessArgs'). */
export function processOptionsOf(argv: string[], flags: Record<string, unknown>): ProcessOptions {
  return {
    paths: argv,
    project: flags.project as string | undefined,
    out: flags.out as string,
    concurrency: flags.concurrency as number | undefined,
    pageLimit: flags["page-limit"] as number | undefined,
    password: flags.password as string | undefined,
    json: flags.json as boolean,
    format: flags.format as string | undefined,
    data: flags.data as string | undefined,
    force: flags.force as boolean | undefined,
    ocrEngine: flags["ocr-engine"] as ProcessOptions["ocrEngine"],
    nameBy: flags["name-by"] as "transaction" | "source",
    verbosity: flags.quiet ? "quiet" : flags.verbose ? "verbose" : "normal",
  };
}

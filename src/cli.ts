/**
 * docproc command-line entry point.
 *
 * Commands are dispatched from an explicit, static map (src/commands/index.ts) instead of oclif's file-system
 * discovery, which cannot work inside a `bun build --compile` binary. `--version` is answered before anything heavy
 * is imported, so start-up stays in the milliseconds; it also names the build's commit (cli/version.ts).
 *
 * Exit codes: 0 success, 1 some input failed, 2 usage error, 3 locked by another run, 4 configuration error.
 */
import pkg from "../package.json" with { type: "json" };
import { warmPdfEarly } from "./cli/early-pdf";
import { execForBatchJit } from "./cli/jit";
import { parseProcessArgs, PROCESS_FLAGS, processOptionsOf, type ProcessFlagValues } from "./cli/process-args";
import { stdoutFlushed, trackStdout } from "./cli/stdout";

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "version")) {
    const { versionLine } = await import("./cli/version");
    process.stdout.write(`${versionLine(pkg.version)}\n`);
    return 0;
  }
  // A misspelt DOCPROC_* variable is an error for every command, not only those that read the settings (exit 4).
  if (Object.keys(process.env).some((k) => k.startsWith("DOCPROC_"))) {
    const unknown = (await import("./settings/env-names")).unknownVariables(process.env);
    if (unknown.length) {
      process.stderr.write(`docproc: environment: ${unknown.join("; ")}\n`);
      return 4;
    }
  }
  // First of all: pdf.js's worker is the longest path of a short run (its start and pdf.js's load, then the first page),
  // and everything below (zod alone ~20 ms) can run beside it.
  await warmPdfEarly(argv);
  // A batch run parses the default project once: zod's compiled fast path (a `new Function` per object schema, built
  // on its first parse) costs more there than it saves (~7 ms of the start); long-lived runs keep it.
  if (argv[0] === "process") (await import("zod")).z.config({ jitless: true });
  // oclif's index checks the Node version against its `engines` when imported, loading semver for it (47 modules,
  // some 5-10 ms of CPU of every start); under Bun the check says nothing. A user's own value is kept.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= "1";
  // `docproc process` given plain paths and flags runs without oclif and the other commands (cli/process-args.ts).
  const plain = argv[0] === "process" ? parseProcessArgs(argv.slice(1)) : null;
  if (plain) return processDirectly(plain.argv, plain.flags);
  const { dispatch } = await import("./commands/dispatch");
  return dispatch(argv);
}

/** `docproc process` with arguments read by parseProcessArgs: what ProcessCommand runs, failures reported alike. */
async function processDirectly(paths: string[], flags: ProcessFlagValues): Promise<number> {
  try {
    const { runProcess } = await import("./cli/process-run");
    return await runProcess(processOptionsOf(paths, flags));
  } catch (err) {
    const { reportError } = await import("./commands/dispatch");
    return reportError(err, { id: "process", flags: Object.keys(PROCESS_FLAGS) });
  }
}

/** Runs the CLI and exits the process with its exit code (background OCR workers must not keep it alive). */
export async function runCli(argv: string[] = process.argv.slice(2)): Promise<never> {
  trackStdout();
  const code = await main(argv);
  // Benchmarks ask where the time went (src/core/timing.ts): the totals go to the file named, never to stdout.
  const diagnostics = await import("./settings/diagnostics");
  const timesFile = diagnostics.stageTimesFile();
  if (timesFile) {
    const { stageTimes } = await import("./core/timing");
    await Bun.write(timesFile, JSON.stringify({ stages: stageTimes(), threads: diagnostics.threadCpuSeconds() }));
  }
  // Let pending stdout drain before exiting: a piped `--json` summary must never be cut short.
  await stdoutFlushed();
  process.exit(code);
}

if (import.meta.main) {
  execForBatchJit();
  await runCli();
}

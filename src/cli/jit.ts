/**
 * JavaScriptCore options for a short batch run, which a process can only get at its start.
 *
 * `docproc process` is a fresh process that runs a few seconds. In that time JavaScriptCore's top-tier (FTL)
 * compiler spends more CPU compiling extraction code than the compiled code ever saves: on 500 born-digital pages
 * its JIT threads took 1.5 CPU-s with FTL and 0.7 without, while the main thread's time stayed the same (issue 18).
 * JSC reads its options from `BUN_JSC_*` variables when the process starts, so the CLI replaces itself (execve: same
 * PID, same open files, nothing to forward) with the same command and FTL switched off. A user's own
 * `BUN_JSC_useFTLJIT` is left alone, as are long-lived commands (serve, worker, watch), where FTL code pays off.
 *
 * The same restart sizes JavaScriptCore's heap for a batch run: JSC lets a heap double between full collections
 * while it stays under a quarter of the machine's RAM (6 GB on a 24 GB machine), and a long document's extraction
 * leaves hundreds of MB of garbage that way. Sized as if the machine had BATCH_RAM_SIZE (or its real RAM, when
 * less), a run of 2,000 pages peaked at 440-465 MB instead of 524-552 (prose pages: 782-853 instead of 908-1,043)
 * with the same CPU time within noise (issue 18). It changes only how soon JSC collects, never a limit: a larger
 * heap still grows. A user's own `BUN_JSC_forceRAMSize` is kept.
 *
 * And it raises the thresholds at which WebAssembly functions are recompiled by the optimizing tier (OMG) a
 * hundredfold: each tesseract.js worker of the embedded OCR engine compiles the same module for itself, and on the
 * bench's 20 scanned pages that compiling took 2.6 CPU-s by default, 1.7 at ten times the thresholds and 0.8 at a
 * hundred, while the workers' recognition took the same time within noise and read exactly the same text. Idle,
 * two rounds: 18.34-18.37 s wall at x100, 18.45-18.76 at x30, 18.53-18.61 at x10 (issue 18). A user's own values
 * are kept.
 *
 * And it raises the thresholds at which JavaScript functions are compiled by the optimizing tier (DFG) threefold: a
 * run spends a third of a core on JIT threads, much of it compiling functions that then run a few times (pdf.js's
 * font code, extraction code for the first documents). 500 real invoice pages, idle, 10 interleaved rounds:
 * 2.68-2.88 -> 2.62-2.81 CPU-s and 1.52-1.67 -> 1.49-1.67 s; 100 one-page files 1.97-2.12 -> 1.84-2.06 CPU-s; 20
 * scanned pages the same within noise (the machine was in a slow phase; an earlier 8-round A/B: 1.31-1.40 ->
 * 1.28-1.35 s on the 500 pages). Ten times the thresholds cost wall time (code stayed slow too long). A user's own
 * values are kept.
 *
 * Long-lived commands (serve, worker, watch) keep FTL, which the HTTP path needs (GET req/s fell 13-32% without it),
 * but restart with its thresholds raised tenfold, so only code that stays hot gets the top tier. In a warm server
 * the first transactions of 500 born-digital pages then cost the JIT threads 0.3-0.7 CPU-s instead of 0.8-1.6, the
 * pipeline thread the same within noise, and GET req/s stayed the same within noise (issue 18). A user's own
 * `BUN_JSC_useFTLJIT` or thresholds are kept (no restart then).
 */
import { totalmem } from "node:os";

/** The RAM JavaScriptCore sizes its heap growth by in a batch run. */
export const BATCH_RAM_SIZE = 1024 * 1024 * 1024;

/** WebAssembly optimizing-tier thresholds of a batch run: a hundred times JavaScriptCore's defaults (50,000 and 500). */
export const BATCH_OMG_THRESHOLDS = { afterWarmUp: "5000000", soon: "50000" };

/** JavaScript optimizing-tier (DFG) thresholds of a batch run: three times JavaScriptCore's defaults (1,000 each). */
export const BATCH_DFG_THRESHOLDS = { afterWarmUp: "3000", afterLongWarmUp: "3000" };

/** Commands that are short batch runs. */
const BATCH_COMMANDS = new Set(["process"]);

/** The argument list that runs this same CLI again: the compiled binary takes its arguments directly. */
export function selfArgs(argv: string[], execPath: string, execArgv: string[], compiled: boolean): string[] {
  return compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, argv[1]!, ...argv.slice(2)];
}

/** The JSC variables a batch run restarts with (a user's own values win). */
export function batchJscEnv(env: Record<string, string | undefined>, ram = totalmem()): Record<string, string> {
  return {
    BUN_JSC_useFTLJIT: "0",
    BUN_JSC_forceRAMSize: env.BUN_JSC_forceRAMSize ?? String(Math.min(ram, BATCH_RAM_SIZE)),
    BUN_JSC_thresholdForOMGOptimizeAfterWarmUp:
      env.BUN_JSC_thresholdForOMGOptimizeAfterWarmUp ?? BATCH_OMG_THRESHOLDS.afterWarmUp,
    BUN_JSC_thresholdForOMGOptimizeSoon: env.BUN_JSC_thresholdForOMGOptimizeSoon ?? BATCH_OMG_THRESHOLDS.soon,
    BUN_JSC_thresholdForOptimizeAfterWarmUp:
      env.BUN_JSC_thresholdForOptimizeAfterWarmUp ?? BATCH_DFG_THRESHOLDS.afterWarmUp,
    BUN_JSC_thresholdForOptimizeAfterLongWarmUp:
      env.BUN_JSC_thresholdForOptimizeAfterLongWarmUp ?? BATCH_DFG_THRESHOLDS.afterLongWarmUp,
  };
}

/** Whether this run should restart itself without FTL. MUST be false once the variable is set (no exec loop). */
export function wantsBatchJit(args: string[], env: Record<string, string | undefined>): boolean {
  return BATCH_COMMANDS.has(args[0] ?? "") && env.BUN_JSC_useFTLJIT === undefined;
}

/** Commands that run for hours and host the pipeline: the server, the queue worker, the folder watcher. */
const LONG_LIVED_COMMANDS = new Set(["serve", "worker", "watch"]);

/** FTL thresholds of a long-lived run: ten times JavaScriptCore's defaults (100,000 and 1,000). */
export const LONG_LIVED_JSC_ENV = {
  BUN_JSC_thresholdForFTLOptimizeAfterWarmUp: "1000000",
  BUN_JSC_thresholdForFTLOptimizeSoon: "10000",
};

/** The variables this run restarts with, or null for none. MUST be null once they are set (no exec loop). */
export function jscRestartEnv(
  args: string[],
  env: Record<string, string | undefined>,
  ram = totalmem(),
): Record<string, string> | null {
  if (wantsBatchJit(args, env)) return batchJscEnv(env, ram);
  const userSet =
    env.BUN_JSC_useFTLJIT !== undefined || Object.keys(LONG_LIVED_JSC_ENV).some((k) => env[k] !== undefined);
  return LONG_LIVED_COMMANDS.has(args[0] ?? "") && !userSet ? { ...LONG_LIVED_JSC_ENV } : null;
}

/**
 * Re-executes the process with the JSC options of its kind of run (`jscRestartEnv`: FTL off for a batch, raised
 * FTL thresholds for a long-lived command); returns (doing nothing) otherwise or where execve is not available.
 * MUST run before anything starts threads of its own or writes output.
 */
export function execForBatchJit(): void {
  const exec = (
    process as { execve?: (file: string, args: string[], env: Record<string, string | undefined>) => never }
  ).execve;
  if (typeof exec !== "function" || process.platform === "win32") return;
  const restartEnv = jscRestartEnv(process.argv.slice(2), process.env);
  if (!restartEnv) return;
  // Inside a `bun build --compile` binary the entry script lives in Bun's virtual file system.
  const compiled = (process.argv[1] ?? "").startsWith("/$bunfs/");
  try {
    exec.call(process, process.execPath, selfArgs(process.argv, process.execPath, process.execArgv, compiled), {
      ...process.env,
      ...restartEnv,
    });
  } catch {
    // Could not exec (a sandbox, an exotic install): run on with the default options, only slower.
  }
}

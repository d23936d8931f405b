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
 */
import { totalmem } from "node:os";

/** The RAM JavaScriptCore sizes its heap growth by in a batch run. */
export const BATCH_RAM_SIZE = 1024 * 1024 * 1024;

/** Commands that are short batch runs. */
const BATCH_COMMANDS = new Set(["process"]);

/** The argument list that runs this same CLI again: the compiled binary takes its arguments directly. */
export function selfArgs(argv: string[], execPath: string, execArgv: string[], compiled: boolean): string[] {
  return compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, argv[1]!, ...argv.slice(2)];
}

/** The JSC variables a batch run restarts with (a user's own values win). */
export function batchJscEnv(env: Record<string, string | undefined>, ram = totalmem()): Record<string, string> {
  return { BUN_JSC_useFTLJIT: "0", BUN_JSC_forceRAMSize: env.BUN_JSC_forceRAMSize ?? String(Math.min(ram, BATCH_RAM_SIZE)) };
}

/** Whether this run should restart itself without FTL. MUST be false once the variable is set (no exec loop). */
export function wantsBatchJit(args: string[], env: Record<string, string | undefined>): boolean {
  return BATCH_COMMANDS.has(args[0] ?? "") && env.BUN_JSC_useFTLJIT === undefined;
}

/**
 * Re-executes the process with FTL off when `wantsBatchJit`; returns (doing nothing) otherwise or where execve is
 * not available. MUST run before anything starts threads of its own or writes output.
 */
export function execForBatchJit(): void {
  const exec = (process as { execve?: (file: string, args: string[], env: Record<string, string | undefined>) => never }).execve;
  if (typeof exec !== "function" || process.platform === "win32") return;
  if (!wantsBatchJit(process.argv.slice(2), process.env)) return;
  // Inside a `bun build --compile` binary the entry script lives in Bun's virtual file system.
  const compiled = (process.argv[1] ?? "").startsWith("/$bunfs/");
  try {
    exec.call(process, process.execPath, selfArgs(process.argv, process.execPath, process.execArgv, compiled), { ...process.env, ...batchJscEnv(process.env) });
  } catch {
    // Could not exec (a sandbox, an exotic install): run on with the default options, only slower.
  }
}

/**
 * `docproc process` restarts itself with JavaScriptCore's FTL tier off, the long-lived commands with FTL's thresholds
 * raised (src/cli/jit.ts); other commands do not restart.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BATCH_DFG_THRESHOLDS,
  BATCH_OMG_THRESHOLDS,
  BATCH_RAM_SIZE,
  LONG_LIVED_JSC_ENV,
  batchJscEnv,
  jscRestartEnv,
  selfArgs,
  wantsBatchJit,
} from "../../src/cli/jit";

const JIT = path.resolve(import.meta.dir, "../../src/cli/jit.ts");

/** Runs a script that calls execForBatchJit() and then reports what the (possibly replaced) process sees. */
async function runProbe(args: string[], env: Record<string, string | undefined> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-jit-"));
  try {
    const script = path.join(dir, "probe.ts");
    writeFileSync(
      script,
      `import { execForBatchJit } from ${JSON.stringify(JIT)};
const pid = process.pid;
execForBatchJit();
console.log(JSON.stringify({ ftl: process.env.BUN_JSC_useFTLJIT ?? null, ram: process.env.BUN_JSC_forceRAMSize ?? null, ftlAfter: process.env.BUN_JSC_thresholdForFTLOptimizeAfterWarmUp ?? null, ftlSoon: process.env.BUN_JSC_thresholdForFTLOptimizeSoon ?? null, omgAfter: process.env.BUN_JSC_thresholdForOMGOptimizeAfterWarmUp ?? null, omgSoon: process.env.BUN_JSC_thresholdForOMGOptimizeSoon ?? null, dfgAfter: process.env.BUN_JSC_thresholdForOptimizeAfterWarmUp ?? null, dfgLong: process.env.BUN_JSC_thresholdForOptimizeAfterLongWarmUp ?? null, args: process.argv.slice(2), pid }));`,
    );
    const childEnv = {
      ...process.env,
      BUN_JSC_useFTLJIT: undefined,
      BUN_JSC_forceRAMSize: undefined,
      BUN_JSC_thresholdForFTLOptimizeAfterWarmUp: undefined,
      BUN_JSC_thresholdForFTLOptimizeSoon: undefined,
      BUN_JSC_thresholdForOMGOptimizeAfterWarmUp: undefined,
      BUN_JSC_thresholdForOMGOptimizeSoon: undefined,
      BUN_JSC_thresholdForOptimizeAfterWarmUp: undefined,
      BUN_JSC_thresholdForOptimizeAfterLongWarmUp: undefined,
      ...env,
    };
    const proc = Bun.spawn([process.execPath, script, ...args], { stdout: "pipe", stderr: "pipe", env: childEnv });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    // One line only: the first image never printed, it was replaced before.
    expect(out.trim().split("\n")).toHaveLength(1);
    return {
      ...(JSON.parse(out) as {
        ftl: string | null;
        ram: string | null;
        ftlAfter: string | null;
        ftlSoon: string | null;
        omgAfter: string | null;
        omgSoon: string | null;
        dfgAfter: string | null;
        dfgLong: string | null;
        args: string[];
        pid: number;
      }),
      spawnedPid: proc.pid,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("process replaces itself, same PID and arguments, with BUN_JSC_useFTLJIT=0", async () => {
  const r = await runProbe(["process", "a file with spaces.pdf", "--json"]);
  expect(r.ftl).toBe("0");
  expect(Number(r.ram)).toBeGreaterThan(0);
  expect(Number(r.ram)).toBeLessThanOrEqual(BATCH_RAM_SIZE);
  expect(r.args).toEqual(["process", "a file with spaces.pdf", "--json"]);
  expect(r.pid).toBe(r.spawnedPid);
});

test("serve and other long-lived commands keep FTL and restart with its thresholds raised; --version does not restart", async () => {
  for (const command of ["serve", "worker", "watch"]) {
    const r = await runProbe([command, "--port", "0"]);
    expect(r.ftl).toBeNull();
    expect(r.ram).toBeNull();
    expect([r.ftlAfter, r.ftlSoon]).toEqual([
      LONG_LIVED_JSC_ENV.BUN_JSC_thresholdForFTLOptimizeAfterWarmUp,
      LONG_LIVED_JSC_ENV.BUN_JSC_thresholdForFTLOptimizeSoon,
    ]);
    expect(r.args).toEqual([command, "--port", "0"]);
    expect(r.pid).toBe(r.spawnedPid);
  }
  const version = await runProbe(["--version"]);
  expect([version.ftl, version.ftlAfter]).toEqual([null, null]);
  // The batch restart does not raise thresholds: there FTL is off.
  expect((await runProbe(["process", "x.pdf"])).ftlAfter).toBeNull();
});

test("a user's own JIT settings keep a long-lived command from restarting", async () => {
  expect((await runProbe(["serve"], { BUN_JSC_thresholdForFTLOptimizeAfterWarmUp: "5" })).ftlSoon).toBeNull();
  expect((await runProbe(["serve"], { BUN_JSC_useFTLJIT: "0" })).ftlAfter).toBeNull();
  expect(jscRestartEnv(["serve"], { ...LONG_LIVED_JSC_ENV })).toBeNull();
  expect(jscRestartEnv(["worker"], {})).toEqual(LONG_LIVED_JSC_ENV);
  expect(jscRestartEnv(["export"], {})).toBeNull();
});

test("a batch run sizes JSC's heap by 1 GiB of RAM, or the machine's RAM when less; a user's own size is kept", async () => {
  expect(batchJscEnv({}, 24 * BATCH_RAM_SIZE).BUN_JSC_forceRAMSize).toBe(String(BATCH_RAM_SIZE));
  expect(batchJscEnv({}, 512 * 1024 * 1024).BUN_JSC_forceRAMSize).toBe(String(512 * 1024 * 1024));
  expect((await runProbe(["process", "x.pdf"], { BUN_JSC_forceRAMSize: "2147483648" })).ram).toBe("2147483648");
  for (const command of ["serve", "worker"]) expect((await runProbe([command])).ram).toBeNull();
});

test("a batch run raises WebAssembly's optimizing-tier thresholds a hundredfold; a user's own values are kept; servers keep the defaults", async () => {
  const restarted = await runProbe(["process", "x.pdf"]);
  expect([restarted.omgAfter, restarted.omgSoon]).toEqual([
    BATCH_OMG_THRESHOLDS.afterWarmUp,
    BATCH_OMG_THRESHOLDS.soon,
  ]);
  expect((await runProbe(["process", "x.pdf"], { BUN_JSC_thresholdForOMGOptimizeSoon: "7" })).omgSoon).toBe("7");
  expect((await runProbe(["serve"])).omgAfter).toBeNull();
});

test("a user's own BUN_JSC_useFTLJIT is kept as it is", async () => {
  expect((await runProbe(["process", "x.pdf"], { BUN_JSC_useFTLJIT: "1" })).ftl).toBe("1");
  expect(wantsBatchJit(["process"], { BUN_JSC_useFTLJIT: "0" })).toBe(false);
});

test("the compiled binary is re-run with its own arguments; from source, bun's flags and the script come first", () => {
  const argv = ["bun", "/$bunfs/root/docproc", "process", "in.pdf"];
  expect(selfArgs(argv, "/opt/docproc", [], true)).toEqual(["/opt/docproc", "process", "in.pdf"]);
  const source = ["/usr/bin/bun", "/repo/src/cli.ts", "process", "in.pdf"];
  expect(selfArgs(source, "/usr/bin/bun", ["--smol"], false)).toEqual([
    "/usr/bin/bun",
    "--smol",
    "/repo/src/cli.ts",
    "process",
    "in.pdf",
  ]);
});

test("a batch run raises the JavaScript optimizing-tier (DFG) thresholds threefold; a user's own values are kept; servers keep the defaults", async () => {
  const restarted = await runProbe(["process", "x.pdf"]);
  expect([restarted.dfgAfter, restarted.dfgLong]).toEqual([
    BATCH_DFG_THRESHOLDS.afterWarmUp,
    BATCH_DFG_THRESHOLDS.afterLongWarmUp,
  ]);
  expect((await runProbe(["process", "x.pdf"], { BUN_JSC_thresholdForOptimizeAfterWarmUp: "9" })).dfgAfter).toBe("9");
  expect((await runProbe(["serve"])).dfgAfter).toBeNull();
});

/**
 * Binary benchmark (issue 9, "Done when"): `docproc --version` start-up time of the compiled binary against
 * `bun -e 0` (the runtime alone), and the size of the binary and of its companion folder.
 * Builds dist/docproc first when it is missing. `bun bench/binary.ts` prints the rows on its own.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { BINARY, LIB_DIR, buildBinary } from "../scripts/build";
import type { BenchRow } from "./index";

const RUNS = 30;

/** Wall-clock milliseconds of `cmd` from spawn to exit: median and fastest of RUNS runs after 3 warm-ups. */
function startupMs(cmd: string[]): { median: number; min: number } {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const t = performance.now();
    const r = Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" });
    if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited with ${r.exitCode}`);
    if (i >= 3) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, min: times[0]! };
}

function folderMB(dir: string): number {
  let bytes = 0;
  for (const f of new Bun.Glob("**/*").scanSync({ cwd: dir, onlyFiles: true, dot: true }))
    bytes += statSync(path.join(dir, f)).size;
  return bytes / 1e6;
}

export async function benchBinary(): Promise<BenchRow[]> {
  if (!existsSync(BINARY) || !existsSync(LIB_DIR)) await buildBinary();
  const binary = startupMs([BINARY, "--version"]);
  const bun = startupMs([process.execPath, "-e", "0"]);
  const fromSource = startupMs([process.execPath, path.resolve(import.meta.dir, "../src/cli.ts"), "--version"]);
  return [
    {
      metric: "docproc --version start-up, binary (median of 30)",
      docproc: binary.median,
      reference: bun.median,
      unit: "ms",
      target: "≤ 20 ms (reference: bun -e 0)",
    },
    {
      metric: "docproc --version start-up, binary (fastest)",
      docproc: binary.min,
      reference: bun.min,
      unit: "ms",
      target: "≤ 20 ms",
    },
    {
      metric: "docproc --version start-up, from source (bun src/cli.ts)",
      docproc: fromSource.median,
      reference: bun.median,
      unit: "ms",
      target: "-",
    },
    {
      metric: "binary size (dist/docproc)",
      docproc: statSync(BINARY).size / 1e6,
      reference: statSync(process.execPath).size / 1e6,
      ratio: null,
      unit: "MB",
      target: "reference: the bun runtime alone",
    },
    {
      metric: "companion folder (dist/docproc-lib)",
      docproc: folderMB(LIB_DIR),
      reference: null,
      unit: "MB",
      target: "native addons, wasm, traineddata, pdf.js assets",
    },
  ];
}

if (import.meta.main) {
  const { renderBenchTable } = await import("./index");
  process.stdout.write(renderBenchTable(await benchBinary()));
}

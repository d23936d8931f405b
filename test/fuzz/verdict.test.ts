/**
 * The fuzz harness's hang verdict (bench/fuzz/verdict.ts) on real processes: a process that burns CPU without
 * answering is a hang once it used its CPU budget, however long that takes on a busy machine; one that sleeps is
 * blocked at the backstop; one that wants the CPU but is starved by another job is neither.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { judge, type Limits, readUsage, since, type Verdict } from "../../bench/fuzz/verdict";

const spawned: Subprocess[] = [];
afterEach(async () => {
  for (const p of spawned.splice(0)) {
    p.kill("SIGKILL");
    await p.exited;
  }
});

// Each child prints "up" once its own code runs, so a test can wait for that instead of for a guessed start-up time.
const BURN = [process.execPath, "-e", 'console.log("up"); for (;;) {}'];
const SLEEPER = [process.execPath, "-e", 'setTimeout(() => {}, 1e9); console.log("up")'];
function spawn(cmd: string[]): Subprocess<"ignore", "pipe", "ignore"> {
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "ignore" });
  spawned.push(p);
  return p;
}

/** Resolves once the child printed "up": its start-up (and any exec before its code, as taskset's and nice's) is over. */
async function up(p: Subprocess<"ignore", "pipe", "ignore">): Promise<void> {
  const reader = p.stdout.getReader();
  let text = "";
  while (!text.includes("up")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the child exited before it was up");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
}

/** Polls the process the way the harness does until the verdict is no longer `running`. */
async function verdictOf(
  pid: number,
  limits: Limits,
): Promise<{ verdict: Verdict; cpuMs: number; waitMs: number | null; wallMs: number }> {
  const start = (await readUsage(pid))!;
  const started = performance.now();
  for (;;) {
    await Bun.sleep(100);
    const usage = since(start, (await readUsage(pid))!, performance.now() - started);
    const verdict = judge(usage, limits);
    if (verdict !== "running") return { verdict, ...usage };
  }
}

/** The first CPU this process may run on: a hog and its victim must share one. */
async function firstCpu(): Promise<string> {
  const list = /Cpus_allowed_list:\s*(\d+)/.exec(await Bun.file("/proc/self/status").text());
  return list?.[1] ?? "0";
}

describe("fuzz hang verdict", () => {
  test("pure rules: CPU budget first, then at the backstop run-queue wait (starved) against idle time (blocked)", () => {
    const limits = { timeLimitMs: 60_000, graceMs: 5_000, backstopMs: 600_000 };
    expect(judge({ wallMs: 70_000, cpuMs: 65_000, waitMs: 0 }, limits)).toBe("hang");
    expect(judge({ wallMs: 599_000, cpuMs: 3_000, waitMs: 590_000 }, limits)).toBe("running");
    expect(judge({ wallMs: 600_000, cpuMs: 3_000, waitMs: 590_000 }, limits)).toBe("starved");
    expect(judge({ wallMs: 600_000, cpuMs: 3_000, waitMs: 1_000 }, limits)).toBe("blocked");
    expect(judge({ wallMs: 600_000, cpuMs: 3_000, waitMs: null }, limits)).toBe("starved");
  });

  test("a process that burns CPU is a hang once it used its CPU budget (not at a wall time)", async () => {
    const p = spawn(BURN);
    const v = await verdictOf(p.pid, { timeLimitMs: 300, graceMs: 200, backstopMs: 600_000 });
    expect(v.verdict).toBe("hang");
    expect(v.cpuMs).toBeGreaterThanOrEqual(500);
  }, 120_000);

  test("a process that sleeps is blocked at the backstop: no CPU and no wait for one", async () => {
    const p = spawn(SLEEPER);
    await up(p);
    const v = await verdictOf(p.pid, { timeLimitMs: 300, graceMs: 200, backstopMs: 1_500 });
    expect(v.verdict).toBe("blocked");
    expect(v.cpuMs).toBeLessThan(500);
  }, 120_000);

  test("a process starved by a CPU hog on its core is starved at the backstop, not a hang", async () => {
    const cpu = await firstCpu();
    spawn(["taskset", "-c", cpu, ...BURN]);
    const victim = spawn(["taskset", "-c", cpu, "nice", "-n", "19", ...BURN]);
    // Not `up(victim)`: the victim, starved, reads as blocked for a while after its first output (measured); 300 ms
    // lets taskset and nice exec the burner and its spin begin.
    await Bun.sleep(300);
    const v = await verdictOf(victim.pid, { timeLimitMs: 1_000, graceMs: 0, backstopMs: 2_000 });
    expect(v.verdict).toBe("starved");
    expect(v.waitMs!).toBeGreaterThan(v.wallMs / 2);
  }, 120_000);

  test("a process that is gone reads as null", async () => {
    const p = Bun.spawn([process.execPath, "-e", "0"]);
    await p.exited;
    expect(await readUsage(p.pid)).toBeNull();
  });
});

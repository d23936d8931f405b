/**
 * The README's install command, as a newcomer runs it: `npm install -g` from the checkout (into a temp prefix, offline:
 * npm links the folder), then the installed `docproc` from another directory. The bin (bin/docproc.js) is a shell
 * script that execs the Bun of node_modules with the JIT settings of src/cli/jit.ts: one process, so a signal sent to
 * the command reaches the server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, totalmem } from "node:os";
import path from "node:path";
import { jscRestartEnv } from "../../src/cli/jit";
import { INBOX, REPO } from "./helpers";
import { readmeSampleOutput, shapeOf } from "../docs/sample-shape";
import { waitFor } from "../support/wait";

let prefix = "";
let work = "";
/** PATH with the temp prefix's bin first and no node_modules/.bin: only the installed command can answer. */
let PATH = "";

const JSC_NAMES = [
  "BUN_JSC_useFTLJIT",
  "BUN_JSC_forceRAMSize",
  "BUN_JSC_thresholdForOMGOptimizeAfterWarmUp",
  "BUN_JSC_thresholdForOMGOptimizeSoon",
  "BUN_JSC_thresholdForOptimizeAfterWarmUp",
  "BUN_JSC_thresholdForOptimizeAfterLongWarmUp",
  "BUN_JSC_thresholdForFTLOptimizeAfterWarmUp",
  "BUN_JSC_thresholdForFTLOptimizeSoon",
];
/** The environment without any JSC option of the caller's (bun test may run under tuned settings itself). */
const cleanEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !JSC_NAMES.includes(k))) as Record<string, string>;

beforeAll(async () => {
  prefix = mkdtempSync(path.join(tmpdir(), "docproc-prefix-"));
  work = mkdtempSync(path.join(tmpdir(), "docproc-newcomer-"));
  const npm = Bun.spawn(["npm", "install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", "."], {
    cwd: REPO,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(npm.stdout).text(),
    new Response(npm.stderr).text(),
    npm.exited,
  ]);
  if (code !== 0) throw new Error(`npm install -g failed (${code}):\n${out}\n${err}`);
  PATH = [path.join(prefix, "bin"), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
});

afterAll(() => {
  for (const dir of [prefix, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function docproc(args: string[], cwd: string) {
  const proc = Bun.spawn(["docproc", ...args], { cwd, env: { ...cleanEnv(), PATH }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

describe("npm install -g from the checkout", () => {
  test("puts docproc on PATH: the sample inbox as the README writes it, from another directory, then review --help", async () => {
    mkdirSync(path.join(work, "fixtures"));
    cpSync(INBOX, path.join(work, "fixtures/inbox"), { recursive: true });
    const r = await docproc(["process", "fixtures/inbox"], work);
    expect(r.stderr).not.toContain("not found");
    // The shell half of bin/docproc.js runs `":" /*` as one no-op command; a formatter once split it into `":"; /*`,
    // which made sh execute `/bin` and print "Permission denied" on every run.
    expect(r.stderr).not.toMatch(/permission denied|not found|syntax error/i);
    expect(r.code).toBe(0);
    const out = path.join(work, "docproc-out");
    expect(r.stdout).toContain(`5 of 5 files processed`);
    // The hint names the installed command and the folder, and runs as printed.
    expect(r.stdout).toContain(`docproc review ${out}`);
    expect(existsSync(out)).toBe(true);
    // The README's sample output has the shape of this fresh run: same sections, same columns, in the same order.
    expect(shapeOf(readmeSampleOutput(readFileSync(path.join(REPO, "README.md"), "utf8")))).toEqual(shapeOf(r.stdout));

    const help = await docproc(["review", "--help"], tmpdir());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("$ docproc review FOLDER");
  }, 600_000);

  test("SIGTERM to the installed command stops the server: the command is the server process, not a wrapper", async () => {
    const data = path.join(work, "serve-data");
    const proc = Bun.spawn(["docproc", "serve", "--port", "0", "--data", data, "--log-format", "json"], {
      cwd: work,
      env: { ...cleanEnv(), PATH, ADMIN_API_KEY: "k" },
      stdout: "pipe",
      stderr: "pipe",
    });
    // Wait for the listening line (the event, not a sleep).
    const reader = proc.stderr.getReader();
    let log = "";
    while (!log.includes('"event":"listening"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`serve ended before listening:\n${log}`);
      log += new TextDecoder().decode(value);
    }
    // exec: the PID the caller holds is Bun itself, tuned for a long-lived command.
    expect(path.basename(readlinkSync(`/proc/${proc.pid}/exe`))).toMatch(/^bun/);
    const environ = readFileSync(`/proc/${proc.pid}/environ`, "utf8").split("\0");
    expect(environ).toContain("BUN_JSC_thresholdForFTLOptimizeSoon=10000");
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    reader.releaseLock();
    expect(existsSync(`/proc/${proc.pid}`)).toBe(false);
  }, 120_000);
});

test("SIGTERM to npx docproc serve stops the server too, though npm and its shell sit in between", async () => {
  const data = path.join(work, "npx-data");
  const npx = Bun.spawn(
    ["npx", "--offline", "docproc", "serve", "--port", "0", "--data", data, "--log-format", "json"],
    { cwd: REPO, env: { ...cleanEnv(), ADMIN_API_KEY: "k" }, stdout: "pipe", stderr: "pipe" },
  );
  const reader = npx.stderr.getReader();
  let log = "";
  while (!log.includes('"event":"listening"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve ended before listening:\n${log}`);
    log += new TextDecoder().decode(value);
  }
  const server = JSON.parse(log.split("\n").find((l) => l.includes('"event":"listening"'))!).pid as number;
  expect(server).not.toBe(npx.pid);
  npx.kill("SIGTERM");
  await npx.exited;
  // The server logs its own shutdown (it got SIGTERM when its parent shell died) and exits.
  while (!log.includes('"event":"stopped"')) {
    const { value, done } = await reader.read();
    if (done) break;
    log += new TextDecoder().decode(value);
  }
  expect(log).toContain('"event":"stopped"');
  const gone = () => !existsSync(`/proc/${server}`) || readFileSync(`/proc/${server}/stat`, "utf8").includes(") Z ");
  await waitFor("the server process to exit", gone);
  expect(existsSync(`/proc/${server}`) && !readFileSync(`/proc/${server}/stat`, "utf8").includes(") Z ")).toBe(false);
}, 120_000);

describe("bin/docproc.js sets the JIT options of src/cli/jit.ts itself", () => {
  /** A copy of the bin beside a stand-in "bun" that prints the JSC options and arguments it was started with. */
  function fakeInstall(): string {
    const root = mkdtempSync(path.join(tmpdir(), "docproc-fakebun-"));
    mkdirSync(path.join(root, "bin"));
    mkdirSync(path.join(root, "node_modules/bun/bin"), { recursive: true });
    cpSync(path.join(REPO, "bin/docproc.js"), path.join(root, "bin/docproc.js"));
    const fake = path.join(root, "node_modules/bun/bin/bun.exe");
    writeFileSync(fake, '#!/bin/sh\nenv | grep "^BUN_JSC_" | sort\nfor a in "$@"; do echo "arg:$a"; done\n');
    chmodSync(fake, 0o755);
    return root;
  }

  test("for every kind of command, the same variables and values as jscRestartEnv, and the arguments unchanged", async () => {
    const root = fakeInstall();
    try {
      for (const args of [
        ["process", "a b.pdf", "--json"],
        ["serve", "--port", "0"],
        ["worker"],
        ["watch", "in"],
        ["export", "x"],
        ["--version"],
      ]) {
        const proc = Bun.spawn([path.join(root, "bin/docproc.js"), ...args], { env: cleanEnv(), stdout: "pipe" });
        const lines = (await new Response(proc.stdout).text()).trim().split("\n").filter(Boolean);
        expect(await proc.exited).toBe(0);
        const env = Object.fromEntries(
          lines.filter((l) => l.startsWith("BUN_JSC_")).map((l) => l.split("=", 2) as [string, string]),
        );
        expect(env).toEqual(jscRestartEnv(args, {}, totalmem()) ?? {});
        expect(lines.filter((l) => l.startsWith("arg:")).map((l) => l.slice(4))).toEqual([
          path.join(root, "bin/docproc.js"),
          ...args,
        ]);
      }
      // A user's own value wins, and a user's FTL setting keeps the batch options off entirely, as in jit.ts.
      const own = Bun.spawn([path.join(root, "bin/docproc.js"), "process"], {
        env: { ...cleanEnv(), BUN_JSC_forceRAMSize: "123" },
        stdout: "pipe",
      });
      expect(await new Response(own.stdout).text()).toContain("BUN_JSC_forceRAMSize=123\n");
      const ftl = Bun.spawn([path.join(root, "bin/docproc.js"), "process"], {
        env: { ...cleanEnv(), BUN_JSC_useFTLJIT: "1" },
        stdout: "pipe",
      });
      expect((await new Response(ftl.stdout).text()).split("\n").filter((l) => l.startsWith("BUN_JSC_"))).toEqual([
        "BUN_JSC_useFTLJIT=1",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("without a Bun beside it or on PATH, it says what to run instead of failing obscurely", async () => {
    const root = fakeInstall();
    try {
      rmSync(path.join(root, "node_modules"), { recursive: true });
      const proc = Bun.spawn([path.join(root, "bin/docproc.js"), "--version"], {
        env: { ...cleanEnv(), PATH: "/usr/bin:/bin" },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await proc.exited).toBe(127);
      expect(await new Response(proc.stderr).text()).toContain("run 'npm ci'");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

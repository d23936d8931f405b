/**
 * The CLI as real child processes (`bun src/cli.ts ...`): one-shot runs, long-running `serve` on a loopback port,
 * free ports and output capture. Shared by the auth, batch, capture, cli, server and webhooks suites.
 */
import type { Subprocess } from "bun";
import path from "node:path";
import { databaseEnv } from "./postgres";
import { waitFor } from "./wait";

export const ROOT = path.resolve(import.meta.dir, "../..");

/** The `--data` directory a command line names (its database is PostgreSQL on the PostgreSQL test run). */
const dataDirOf = (args: string[]) => {
  const i = args.indexOf("--data");
  return i >= 0 ? args[i + 1] : undefined;
};
export const CLI = path.join(ROOT, "src/cli.ts");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  cwd?: string;
  /** Added over process.env. */
  env?: Record<string, string>;
}

/** Spawns `bun src/cli.ts ...` with piped output, no TTY and NO_COLOR, the way cron or a script runs it. */
export function spawnCli(args: string[], opts: SpawnOptions = {}) {
  return Bun.spawn([process.execPath, CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1", ...databaseEnv(dataDirOf(args)), ...opts.env },
  });
}

/** Runs the CLI to its end (killed after `timeoutMs`, default 60 s). */
export async function runCli(args: string[], opts: SpawnOptions & { timeoutMs?: number } = {}): Promise<CliRun> {
  const proc = spawnCli(args, opts);
  const timer = setTimeout(() => proc.kill(), opts.timeoutMs ?? 60_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface Served {
  proc: Subprocess;
  base: string;
  output(): string;
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** Starts `docproc serve` and resolves once GET /health answers (throws if it exits or is not up within 20 s). */
export async function spawnServe(opts: {
  dataDir: string;
  port: number;
  key: string;
  workers?: number;
  env?: Record<string, string>;
  cwd?: string;
}): Promise<Served> {
  const proc = spawnCommand(
    "serve",
    ["--data", opts.dataDir, "--port", String(opts.port), "--workers", String(opts.workers ?? 2)],
    { ADMIN_API_KEY: opts.key, ...opts.env },
    opts.cwd,
  );
  const output = capture(proc);
  const base = `http://127.0.0.1:${opts.port}`;
  const up = async () => {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}): ${output()}`);
    return (await fetch(`${base}/health`).catch(() => null))?.ok;
  };
  try {
    await waitFor("the server's /health", up, { timeoutMs: 20_000, everyMs: 100 });
  } catch (err) {
    proc.kill("SIGKILL");
    throw new Error(`server did not come up: ${(err as Error).message}: ${output()}`);
  }
  return { proc, base, output };
}

/** `docproc <command> ...` through the CLI entry point. */
export function spawnCommand(command: string, args: string[], env: Record<string, string> = {}, cwd?: string) {
  return spawnCli([command, ...args], { env, cwd });
}

/** Collects a process's stdout and stderr; call the result to read them so far. */
export function capture(proc: Subprocess): () => string {
  let out = "";
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const reader = s.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out += new TextDecoder().decode(value);
    }
  };
  void pump(proc.stdout as ReadableStream<Uint8Array>);
  void pump(proc.stderr as ReadableStream<Uint8Array>);
  return () => out;
}

/** Starts `docproc serve` / `docproc worker` as real processes (`bun src/cli.ts ...`) on a loopback port. */
import type { Subprocess } from "bun";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dir, "../..");
const BUN = path.join(ROOT, "node_modules/.bin/bun");

export interface Served {
  proc: Subprocess;
  base: string;
  output(): string;
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

export async function spawnServe(opts: { dataDir: string; port: number; key: string; workers?: number; env?: Record<string, string> }): Promise<Served> {
  const proc = spawnCommand("serve", ["--data", opts.dataDir, "--port", String(opts.port), "--workers", String(opts.workers ?? 2)], { ADMIN_API_KEY: opts.key, ...opts.env });
  const output = capture(proc);
  const base = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}): ${output()}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return { proc, base, output };
    } catch {}
    await Bun.sleep(100);
  }
  proc.kill("SIGKILL");
  throw new Error(`server did not come up: ${output()}`);
}

/** `docproc <command> ...` through the CLI entry point. */
export function spawnCommand(command: "serve" | "worker", args: string[], env: Record<string, string> = {}): Subprocess {
  return Bun.spawn([BUN, "src/cli.ts", command, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
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

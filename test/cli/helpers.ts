import path from "node:path";

export const REPO = path.resolve(import.meta.dir, "../..");
export const CLI = path.join(REPO, "src/cli.ts");
export const INBOX = path.join(REPO, "fixtures/inbox");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Spawns the real CLI (`bun src/cli.ts ...`) the way a user runs it, without a TTY. */
export async function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], {
    cwd: opts.cwd ?? REPO,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const timer = setTimeout(() => proc.kill(), opts.timeoutMs ?? 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

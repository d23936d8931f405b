/** A `docproc watch --json` child process whose events the tests can wait for. */
import path from "node:path";
import { perFileProject, spawnCli, tempDir } from "./helpers";

export interface Event {
  event: string;
  file?: string;
  transaction_id?: string;
  reason?: string;
  time: string;
  [k: string]: unknown;
}

export class WatchProc {
  readonly events: Event[] = [];
  readonly proc: ReturnType<typeof spawnCli>;
  private waiters: Array<() => void> = [];
  stderr = "";
  /** Settles once stdout and stderr are read to their end (after the process exits). */
  private readonly drained: Promise<unknown>;

  constructor(args: string[], opts: { env?: Record<string, string> } = {}) {
    this.proc = spawnCli(["watch", ...args, "--json"], opts);
    this.drained = Promise.all([this.read(), new Response(this.proc.stderr).text().then((t) => (this.stderr = t))]);
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    const reader = this.proc.stdout.getReader();
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) this.events.push(JSON.parse(line));
      }
      for (const w of this.waiters.splice(0)) w();
    }
    for (const w of this.waiters.splice(0)) w();
  }

  of(kind: string): Event[] {
    return this.events.filter((e) => e.event === kind);
  }

  /** Waits until `pred` holds over the events so far (checked after every batch of output). */
  async waitFor(pred: (events: Event[]) => boolean, timeoutMs = 60_000, what = "condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; events: ${JSON.stringify(this.events.slice(-5))}; stderr: ${this.stderr}`,
        );
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), Bun.sleep(200)]);
    }
  }

  /** SIGTERM, then the exit code once every event and all of stderr have been read. */
  async stop(): Promise<number> {
    this.proc.kill("SIGTERM");
    const code = await this.proc.exited;
    await this.drained;
    return code;
  }

  async kill9(): Promise<void> {
    this.proc.kill("SIGKILL");
    await this.proc.exited;
  }
}

/** A fresh inbox/out/data trio; `args` builds the watch arguments (per-file project unless defaultProject). */
export async function setupWatch(cleanup: string[], opts: { defaultProject?: boolean } = {}) {
  const root = tempDir("watch", cleanup);
  const inbox = path.join(root, "inbox");
  const out = path.join(root, "out");
  const data = path.join(root, "data");
  const project = opts.defaultProject ? [] : ["--project", await perFileProject(root)];
  return {
    root,
    inbox,
    out,
    data,
    args: (extra: string[] = []) => [inbox, "--out", out, "--data", data, ...project, ...extra],
  };
}

export async function mkdirp(dir: string): Promise<void> {
  await Bun.write(path.join(dir, ".keep"), "");
}

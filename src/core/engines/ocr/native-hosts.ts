/**
 * The parent side of a tesseract host (native-host.ts): starts the child, sends it images, hands back its TSV.
 * One request at a time per host (the engine's slot pool sees to that); a host that dies fails the request in
 * flight and is replaced by the caller on its next use. Idle hosts do not keep a process alive (unref'd, and
 * nothing reads their output between requests).
 */
import type { Subprocess } from "bun";
import fs from "node:fs";
import path from "node:path";
import { FrameReader, encodeFrame, type FrameHeader } from "./native-frames.ts";
import type { GreyImage } from "../../imaging/grey.ts";

/**
 * The host script beside this module. A compiled docproc binary has no modules on disk: the build ships the host
 * bundled as docproc-lib/native-host.js and rewrites this line to point there (scripts/build.ts); when that file is
 * missing the engine keeps running the `tesseract` CLI per page.
 */
const HOST_SCRIPT = path.join(import.meta.dir, "native-host.ts");

export function hostScriptAvailable(): boolean {
  return fs.existsSync(HOST_SCRIPT);
}

/** The host could not start at all (no libtesseract to load): the engine uses the CLI instead, for good. */
export class HostUnavailable extends Error {}
/** Tesseract answered that it could not read an image: the host itself is fine. */
class TesseractError extends Error {}

export interface HostRequest {
  datapath: string;
  lang: string;
  psm: number;
  dpi?: number;
}

export class NativeHost {
  private readonly frames = new FrameReader();
  private exitError: Error | null = null;
  private busy = false;

  private constructor(private readonly proc: Subprocess<"pipe", "pipe", "ignore">) {
    void proc.exited.then(
      (code) => (this.exitError ??= new Error(`the tesseract host exited (${proc.signalCode ?? `code ${code}`})`)),
    );
  }

  /** Starts a host and waits for its greeting; HostUnavailable when libtesseract cannot be loaded there. */
  static async start(): Promise<NativeHost> {
    let proc: Subprocess<"pipe", "pipe", "ignore">;
    try {
      // OMP_THREAD_LIMIT=1: parallelism comes from pages (one host per worker), OpenMP threads would only fight
      // over the same cores.
      // BUN_BE_BUN=1: a compiled docproc then runs the script as plain Bun would, instead of its own CLI (Bun
      // itself ignores it).
      const env = { ...process.env, OMP_THREAD_LIMIT: "1", BUN_BE_BUN: "1" };
      proc = Bun.spawn([process.execPath, HOST_SCRIPT], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env });
    } catch (err) {
      throw new HostUnavailable(String((err as Error)?.message ?? err));
    }
    const host = new NativeHost(proc);
    const hello = await host.next().catch((err: Error) => {
      throw new HostUnavailable(err.message);
    });
    if (hello.header.ok !== true) {
      await host.stop();
      throw new HostUnavailable(String(hello.header.error ?? "the tesseract host did not start"));
    }
    proc.unref();
    return host;
  }

  get alive(): boolean {
    return this.exitError === null;
  }

  /** Reads one grey image; rejects when tesseract fails on it or the host dies meanwhile. */
  async read(img: GreyImage, req: HostRequest): Promise<string> {
    if (this.exitError) throw this.exitError;
    if (this.busy) throw new Error("the tesseract host is busy");
    this.busy = true;
    const pixels = img.data.length === img.width * img.height ? img.data : img.data.subarray(0, img.width * img.height);
    this.proc.ref();
    try {
      // A large write returns a promise; awaited, a host that died meanwhile fails this read (EPIPE) instead of
      // leaving an unhandled rejection behind.
      await this.proc.stdin.write(
        encodeFrame({ ...req, width: img.width, height: img.height, bytes: pixels.length }, pixels),
      );
      await this.proc.stdin.flush();
      const { header, payload } = await this.next();
      if (header.ok !== true) throw new TesseractError(String(header.error ?? "tesseract failed"));
      return new TextDecoder().decode(payload);
    } catch (err) {
      // A failed pipe means a dead host even before its exit is reported: the next page MUST get a new one.
      if (!(err instanceof TesseractError)) {
        this.exitError ??= err as Error;
        this.proc.kill("SIGKILL");
      }
      throw err;
    } finally {
      this.proc.unref();
      this.busy = false;
    }
  }

  /** Ends the host (a page it is reading fails); settles once it has exited, so its CPU time is accounted for. */
  async stop(): Promise<void> {
    this.exitError ??= new Error("the tesseract host was stopped");
    this.proc.kill();
    await this.proc.exited;
  }

  /**
   * The next answer. Stdout is read only while an answer is awaited, its reader released after: a reader held on
   * an idle host keeps the parent's event loop (and a CLI run that is done) alive.
   */
  private async next(): Promise<{ header: FrameHeader; payload: Uint8Array }> {
    const input = this.proc.stdout.getReader();
    try {
      for (;;) {
        const frame = this.frames.next();
        if (frame) return frame;
        const r = await input.read().catch(() => ({ done: true as const, value: undefined }));
        if (r.done) {
          await this.proc.exited;
          throw this.exitError ?? new Error("the tesseract host closed its output");
        }
        this.frames.push(r.value);
      }
    } finally {
      input.releaseLock();
    }
  }
}

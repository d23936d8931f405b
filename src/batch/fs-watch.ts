/** The file events of watched folders (chokidar) for `docproc watch` (watcher.ts), and a file's change key. */
import { watch, type FSWatcher } from "chokidar";
import path from "node:path";

export interface WatchTargets {
  dirs: string[];
  /** Folders never watched inside (processed/, failed/, the output and data folders); dot files are skipped too. */
  excluded: string[];
  polling: boolean;
  /** Polling runs at half the stable time (between 50 ms and 1 s). */
  stableMs: number;
  onFile(file: string): void;
  onGone(file: string): void;
  onError(err: unknown): void;
}

/** A live watcher over `dirs` (resolves once chokidar is ready); files already there raise no event. */
export async function openWatcher(t: WatchTargets): Promise<FSWatcher> {
  const roots = new Set(t.dirs);
  const interval = Math.max(50, Math.min(1000, Math.floor(t.stableMs / 2)));
  const watcher = watch(t.dirs, {
    ignoreInitial: true,
    usePolling: t.polling,
    interval,
    binaryInterval: interval,
    ignored: (p: string) =>
      !roots.has(p) &&
      (path.basename(p).startsWith(".") || t.excluded.some((x) => p === x || p.startsWith(x + path.sep))),
  });
  watcher.on("add", t.onFile).on("change", t.onFile).on("unlink", t.onGone);
  watcher.on("error", t.onError);
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return watcher;
}

/** "size:mtime" of a file ("" when it is gone): a changed key means the file changed. */
export async function statKey(file: string): Promise<string> {
  const info = await Bun.file(file)
    .stat()
    .catch(() => null);
  return info ? `${info.size}:${info.mtimeMs}` : "";
}

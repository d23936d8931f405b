/**
 * Standard output that is never cut short by `process.exit`. Bun hands a write to a pipe over to the kernel as the
 * reader makes room and `process.exit` drops what is still queued: a `--json` summary above 64 KiB piped into
 * another program arrived as exactly 65,536 bytes. `write("", cb)` does not help (its callback does not wait for
 * earlier writes), and `writableLength` stays 0, so every write is counted here until its own callback says it is
 * out. `trackStdout()` MUST be called before anything is written; `stdoutFlushed()` resolves when all is out.
 */
let pending = 0;
const idle: Array<() => void> = [];
let installed = false;

export function trackStdout(out: NodeJS.WriteStream = process.stdout): void {
  if (installed) return;
  installed = true;
  const write = out.write.bind(out) as (
    chunk: unknown,
    encoding?: unknown,
    cb?: (err?: Error | null) => void,
  ) => boolean;
  out.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
    const callback = typeof encoding === "function" ? encoding : cb;
    pending++;
    return write(chunk, typeof encoding === "function" ? undefined : encoding, (err?: Error | null) => {
      pending--;
      if (typeof callback === "function") (callback as (err?: Error | null) => void)(err);
      if (pending === 0) for (const resolve of idle.splice(0)) resolve();
    });
  }) as typeof out.write;
}

/** Resolves once every write made since trackStdout() has been handed to the OS (at once when none is pending). */
export function stdoutFlushed(): Promise<void> {
  return pending === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve));
}

/**
 * Signals through npm's wrappers. `npx docproc serve` (and `npm run docproc -- serve`) runs npm, which runs
 * `sh -c "docproc serve"`, which runs docproc: a SIGTERM to npx killed npm and its shell but left the server running,
 * orphaned (measured: issue 37). The installed command has no such chain (bin/docproc.js execs Bun: one process).
 *
 * So when npm started this process (npm sets `npm_command`), Linux is asked to send it SIGTERM when its parent dies
 * (prctl PR_SET_PDEATHSIG): the server then shuts down as on any SIGTERM. Only under npm: `nohup docproc serve &`
 * must outlive the shell that started it.
 */
const PR_SET_PDEATHSIG = 1;
const SIGTERM = 15;

/** Asks for SIGTERM when the parent process dies; false where that is not available (not Linux, no libc). */
export async function terminateWithParent(): Promise<boolean> {
  if (process.platform !== "linux") return false;
  const parent = process.ppid;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const libc = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    });
    const ok = libc.symbols.prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) === 0;
    // The parent may have died before the request: then no signal will come, so act as if it had.
    if (ok && process.ppid !== parent) process.kill(process.pid, "SIGTERM");
    return ok;
  } catch {
    return false;
  }
}

/**
 * The command the bench times: the installed `docproc` (what users run), never `src/cli.ts` or npx (issue 34).
 * `DOCPROC_BENCH_BIN` names another one to time (e.g. the compiled binary, `dist/docproc`); otherwise the first
 * `docproc` on PATH. Without one the bench stops and says how to install it: a figure from another entry point
 * would not be the job a user runs.
 */
export function docprocCommand(): string[] {
  const chosen = process.env.DOCPROC_BENCH_BIN?.trim();
  if (chosen) return [chosen];
  const installed = Bun.which("docproc");
  if (installed) return [installed];
  throw new Error(
    "no `docproc` on PATH: install it first (`npm install -g .` in the checkout, see README), or set DOCPROC_BENCH_BIN",
  );
}

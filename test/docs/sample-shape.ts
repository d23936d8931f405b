/**
 * The shape of `docproc process`'s summary: which sections it prints, in which order, with which table columns,
 * without the figures, paths and file names that change from run to run. The README's sample output must have the
 * shape of a fresh run (test/cli/install.test.ts), so the page cannot go stale again unnoticed.
 */

/** The README's sample of `docproc process`: the code block after the `<!-- sample:process -->` marker. */
export function readmeSampleOutput(readme: string): string {
  const m = /<!-- sample:process -->\s*```[^\n]*\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error("README.md has no <!-- sample:process --> block");
  return m[1];
}

/** One entry per line kind, repeated kinds (table rows, list items) folded into one; "…" lines are elisions. */
export function shapeOf(output: string): string[] {
  const shape: string[] = [];
  for (const raw of output.split("\n")) {
    const line = raw.trimEnd();
    if (line === "" || line.trim() === "…") continue;
    const kind = kindOf(line);
    if (shape[shape.length - 1] !== kind) shape.push(kind);
  }
  return shape;
}

function kindOf(line: string): string {
  if (/^─/.test(line)) return "rule";
  if (/^file\s+pages/.test(line)) return `header: ${line.split(/\s{2,}/).join(" | ")}`;
  if (/^\s+Open them with: docproc review \//.test(line)) return "hint: Open them with: docproc review <folder>";
  if (/^\s/.test(line)) return "item";
  // Section lines: figures, paths and times replaced, so "5 of 5 files processed in 41 s" matches any run.
  if (/\s(success|review|failure|partial)$/.test(line)) return "row";
  return line
    .replace(/\/\S*?(?=:?$|;|\s)/g, "<path>")
    .replace(/\d+ min /g, "")
    .replace(/\d+(\.\d+)?/g, "N");
}

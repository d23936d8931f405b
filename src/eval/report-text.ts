/** Terminal rendering of an evaluation report, and of two reports side by side (`--compare`). */
import { renderTable } from "../text/table";
import { scoreOutcomes, type EvalReport, type FileOutcome } from "./score";

export const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);

export function renderReport(r: EvalReport, title = "evaluation"): string {
  const out: string[] = [`${title}: ${r.files} files, ${r.documents} documents`, ""];
  out.push(
    renderTable(
      ["field", "correct", "accuracy"],
      [
        ...r.fields.map((f) => [f.field, `${f.correct}/${f.total}`, pct(f.accuracy)]),
        ["all fields", `${r.overall.correct}/${r.overall.total}`, pct(r.overall.accuracy)],
      ],
      ["left", "right", "right"],
    ),
  );
  if (r.classes.total) {
    out.push(
      `classes: ${r.classes.correct}/${r.classes.total} = ${pct(r.classes.accuracy)}  (rows expected, columns predicted)`,
    );
    out.push(
      renderTable(
        ["", ...r.classes.labels],
        r.classes.labels.map((l, i) => [l, ...r.classes.matrix[i]!.map(String)]),
        ["left", ...r.classes.labels.map(() => "right" as const)],
      ),
    );
  }
  const s = r.split;
  out.push(
    `split boundaries: F1 ${s.f1.toFixed(3)} (precision ${s.precision.toFixed(3)}, recall ${s.recall.toFixed(3)}; ${s.tp} right, ${s.fp} extra, ${s.fn} missed)`,
  );
  if (r.text.cer !== null)
    out.push(
      `text: character error rate ${(100 * r.text.cer).toFixed(2)}% over ${r.text.documents} documents (${r.text.files.map((f) => `${f.file} ${(100 * f.cer).toFixed(2)}%`).join(", ")})`,
    );
  out.push("");
  const c = r.calibration;
  out.push("calibration (fields with a value, by confidence)");
  out.push(
    renderTable(
      ["confidence", "fields", "correct", "accuracy", "mean conf."],
      c.buckets.map((b) => [
        `${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`,
        String(b.total),
        String(b.correct),
        pct(b.accuracy),
        b.mean_confidence === null ? "–" : b.mean_confidence.toFixed(2),
      ]),
      ["left", "right", "right", "right", "right"],
    ),
  );
  const ratio = errorRatio(r);
  out.push(
    `review threshold ${c.review_threshold}: error rate ${pct(c.below.error_rate)} below (${c.below.total} fields), ${pct(c.above.error_rate)} at or above (${c.above.total})${ratio === null ? "" : `, ${ratio === Infinity ? "∞" : ratio.toFixed(1)}× as often`}`,
  );
  for (const e of r.errors) out.push(`error  ${e.file}: ${e.error}`);
  return out.join("\n") + "\n";
}

/** How many times as often fields below the review threshold are wrong as those above it (null: a side is empty). */
export function errorRatio(r: EvalReport): number | null {
  const { above, below } = r.calibration;
  if (above.error_rate === null || below.error_rate === null) return null;
  if (above.error_rate === 0) return below.error_rate > 0 ? Infinity : null;
  return below.error_rate / above.error_rate;
}

export function renderComparison(a: EvalReport, b: EvalReport, names: [string, string]): string {
  const fields = [...new Set([...a.fields, ...b.fields].map((f) => f.field))];
  const get = (r: EvalReport, f: string) => r.fields.find((x) => x.field === f);
  const delta = (x?: number, y?: number) =>
    x === undefined || y === undefined ? "–" : `${y - x >= 0 ? "+" : ""}${(100 * (y - x)).toFixed(1)}`;
  const rows = fields.map((f) => [
    f,
    pct(get(a, f)?.accuracy),
    pct(get(b, f)?.accuracy),
    delta(get(a, f)?.accuracy, get(b, f)?.accuracy),
  ]);
  rows.push([
    "all fields",
    pct(a.overall.accuracy),
    pct(b.overall.accuracy),
    delta(a.overall.accuracy, b.overall.accuracy),
  ]);
  rows.push([
    "classes",
    pct(a.classes.accuracy),
    pct(b.classes.accuracy),
    delta(a.classes.accuracy, b.classes.accuracy),
  ]);
  rows.push(["split F1", a.split.f1.toFixed(3), b.split.f1.toFixed(3), delta(a.split.f1, b.split.f1)]);
  return (
    `comparison over ${a.files} files\n\n` +
    renderTable(["", names[0], names[1], "Δ points"], rows, ["left", "right", "right", "right"])
  );
}

/** The first folder of a file's path in the evaluation folder: its series ("." for files at the top). */
const groupOf = (file: string) => (file.includes("/") ? file.slice(0, file.indexOf("/")) : ".");

/**
 * `--compare` over a folder of series (one subfolder each: a vendor's scans, a shop's receipts, vendors never
 * taught): right fields per series under each project, side by side. Empty when the folder has no subfolders.
 */
export function renderSeriesComparison(
  a: FileOutcome[],
  b: FileOutcome[],
  names: [string, string],
  reviewThreshold: number,
): string {
  const groups = [...new Set(a.map((o) => groupOf(o.file)))].sort();
  if (groups.length < 2 && groups[0] === ".") return "";
  const score = (os: FileOutcome[], g: string) =>
    scoreOutcomes(
      os.filter((o) => groupOf(o.file) === g),
      reviewThreshold,
    ).overall;
  const cell = (x: { correct: number; total: number; accuracy: number }) =>
    `${x.correct}/${x.total} = ${x.accuracy.toFixed(2)}`;
  const rows = groups.map((g) => {
    const [x, y] = [score(a, g), score(b, g)];
    return [
      g,
      String(a.filter((o) => groupOf(o.file) === g).length),
      cell(x),
      cell(y),
      `${y.accuracy - x.accuracy >= 0 ? "+" : ""}${(100 * (y.accuracy - x.accuracy)).toFixed(1)}`,
    ];
  });
  return (
    `\nby series (subfolder): right fields\n\n` +
    renderTable(["series", "files", names[0], names[1], "Δ points"], rows, ["left", "right", "right", "right", "right"])
  );
}

/**
 * The evaluation report as one self-contained HTML page: tables plus charts drawn as inline SVG (per-field
 * accuracy, calibration against the diagonal, the confusion matrix as a heat map). No script, no CDN, no font
 * download: it opens offline and in a mail attachment. Every chart is an `<svg data-chart="...">`, every mark a
 * `<rect>` or `<line>` with a `data-*` attribute naming what it stands for (the browser test counts them).
 */
import type { EvalReport } from "./score";
import { errorRatio, pct } from "./report-text";
import { maxOf } from "../core/arrays";

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const n = (x: number) => Math.round(x * 10) / 10;

function fieldChart(r: EvalReport): string {
  const rowH = 22,
    labelW = 160,
    barW = 320,
    h = r.fields.length * rowH + 24;
  const bars = r.fields.map((f, i) => {
    const y = i * rowH + 4;
    return (
      `<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${esc(f.field)}</text>` +
      `<rect x="${labelW}" y="${y}" width="${barW}" height="16" fill="#eee"/>` +
      `<rect data-field="${esc(f.field)}" x="${labelW}" y="${y}" width="${n(barW * f.accuracy)}" height="16" fill="${f.accuracy >= 0.95 ? "#2a7" : f.accuracy >= 0.8 ? "#db3" : "#d44"}"><title>${esc(f.field)}: ${f.correct}/${f.total}</title></rect>` +
      `<text x="${labelW + barW + 6}" y="${y + 14}">${pct(f.accuracy)}</text>`
    );
  });
  return `<svg data-chart="fields" width="${labelW + barW + 70}" height="${h}" font-size="12" font-family="sans-serif" role="img" aria-label="accuracy per field">${bars.join("")}</svg>`;
}

function calibrationChart(r: EvalReport): string {
  const size = 260,
    pad = 34;
  const x = (v: number) => pad + v * size,
    y = (v: number) => pad + (1 - v) * size;
  const marks = r.calibration.buckets.map((b) => {
    if (b.accuracy === null) return "";
    return `<rect data-bucket="${b.lo}-${b.hi}" x="${n(x(b.lo) + 2)}" y="${n(y(b.accuracy))}" width="${n((b.hi - b.lo) * size - 4)}" height="${n(b.accuracy * size)}" fill="#48c" opacity="0.8"><title>${b.lo}–${b.hi}: ${b.correct}/${b.total} right</title></rect>`;
  });
  const t = r.calibration.review_threshold;
  return (
    `<svg data-chart="calibration" width="${size + 2 * pad}" height="${size + 2 * pad}" font-size="11" font-family="sans-serif" role="img" aria-label="accuracy by confidence">` +
    `<rect x="${pad}" y="${pad}" width="${size}" height="${size}" fill="none" stroke="#999"/>` +
    marks.join("") +
    `<line data-mark="diagonal" x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#555" stroke-dasharray="4 3"/>` +
    `<line data-mark="review-threshold" x1="${n(x(t))}" y1="${pad}" x2="${n(x(t))}" y2="${pad + size}" stroke="#d44"/>` +
    `<text x="${pad}" y="${pad + size + 14}">0</text><text x="${pad + size}" y="${pad + size + 14}" text-anchor="end">confidence 1</text>` +
    `<text x="${pad - 4}" y="${pad + 10}" text-anchor="end">100%</text></svg>`
  );
}

function confusionChart(r: EvalReport): string {
  const { labels, matrix } = r.classes;
  if (!labels.length) return "<p>No expected classes given.</p>";
  const cell = 34,
    left = 130,
    top = 110;
  const max = Math.max(1, maxOf(matrix.flat()));
  const cells = matrix.flatMap((row, i) =>
    row.map((v, j) => {
      const shade = Math.round(255 - (200 * v) / max);
      const fill = i === j ? `rgb(${shade},${255},${shade})` : `rgb(255,${shade},${shade})`;
      return (
        `<rect data-cell="${esc(labels[i]!)}→${esc(labels[j]!)}" x="${left + j * cell}" y="${top + i * cell}" width="${cell - 1}" height="${cell - 1}" fill="${v ? fill : "#f6f6f6"}"/>` +
        (v
          ? `<text x="${left + j * cell + cell / 2}" y="${top + i * cell + cell / 2 + 4}" text-anchor="middle">${v}</text>`
          : "")
      );
    }),
  );
  const rowLabels = labels.map(
    (l, i) => `<text x="${left - 6}" y="${top + i * cell + cell / 2 + 4}" text-anchor="end">${esc(l)}</text>`,
  );
  const colLabels = labels.map(
    (l, j) => `<text transform="translate(${left + j * cell + cell / 2 + 4},${top - 6}) rotate(-60)">${esc(l)}</text>`,
  );
  return `<svg data-chart="confusion" width="${left + labels.length * cell + 10}" height="${top + labels.length * cell + 10}" font-size="11" font-family="sans-serif" role="img" aria-label="confusion matrix">${[...cells, ...rowLabels, ...colLabels].join("")}</svg>`;
}

export function renderHtml(r: EvalReport, title = "docproc evaluation", generatedAt = new Date()): string {
  const rows = r.fields
    .map((f) => `<tr><td>${esc(f.field)}</td><td>${f.correct}/${f.total}</td><td>${pct(f.accuracy)}</td></tr>`)
    .join("");
  const buckets = r.calibration.buckets
    .map((b) => `<tr><td>${b.lo.toFixed(1)}–${b.hi.toFixed(1)}</td><td>${b.total}</td><td>${pct(b.accuracy)}</td></tr>`)
    .join("");
  const misses = r.fields
    .flatMap((f) =>
      f.misses
        .slice(0, 20)
        .map(
          (m) =>
            `<tr><td>${esc(f.field)}</td><td>${esc(m.file)}</td><td>${esc(JSON.stringify(m.expected))}</td><td>${esc(JSON.stringify(m.got ?? null))}</td></tr>`,
        ),
    )
    .join("");
  const ratio = errorRatio(r);
  const c = r.calibration;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px/1.4 sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}h2{margin-top:1.5em}</style></head><body>
<h1>${esc(title)}</h1>
<p>${r.files} files, ${r.documents} documents · generated ${esc(generatedAt.toISOString())} · all fields <b>${pct(r.overall.accuracy)}</b> (${r.overall.correct}/${r.overall.total})</p>
<h2>Accuracy per field</h2>${fieldChart(r)}
<table><tr><th>field</th><th>correct</th><th>accuracy</th></tr>${rows}</table>
<h2>Classes</h2><p>${r.classes.correct}/${r.classes.total} right (${pct(r.classes.accuracy)}); rows are the expected class, columns the predicted one.</p>${confusionChart(r)}
<h2>Split boundaries</h2><p>F1 <b>${r.split.f1.toFixed(3)}</b> · precision ${r.split.precision.toFixed(3)} · recall ${r.split.recall.toFixed(3)} (${r.split.tp} right, ${r.split.fp} extra, ${r.split.fn} missed)</p>
<h2>Calibration</h2><p>Share of right values per confidence bucket; the dashed line is perfect calibration, the red line the review threshold (${c.review_threshold}). Below it ${pct(c.below.error_rate)} of ${c.below.total} values are wrong, at or above it ${pct(c.above.error_rate)} of ${c.above.total}${ratio === null ? "" : ` (${ratio === Infinity ? "∞" : ratio.toFixed(1)}× as often)`}.</p>${calibrationChart(r)}
<table><tr><th>confidence</th><th>fields</th><th>accuracy</th></tr>${buckets}</table>
${misses ? `<h2>Misses</h2><table><tr><th>field</th><th>file</th><th>expected</th><th>got</th></tr>${misses}</table>` : ""}
${r.errors.length ? `<h2>Errors</h2><ul>${r.errors.map((e) => `<li>${esc(e.file)}: ${esc(e.error)}</li>`).join("")}</ul>` : ""}
</body></html>
`;
}

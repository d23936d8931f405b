/**
 * Writes the realistic memory series (fixtures/vendor-series/realistic.ts, issue 33) as folders for the CLI, so the
 * table of test/core/memory/realistic.test.ts can be reproduced with `docproc memory learn` and `docproc eval`:
 *
 *   bun scripts/memory-series.ts OUT
 *   for f in OUT/teach/*.png; do docproc memory learn "$f" --expected "${f%.png}.json" --project OUT/taught.yaml; done
 *   docproc eval OUT/later --compare OUT/plain.yaml,OUT/taught.yaml
 *
 * OUT/teach holds one confirmed copy per issuer (expected values = what a person confirms), OUT/later/<series> the
 * later documents and the issuers never taught, each image with its expected .json beside it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HEADER_FIELDS, realisticSeries } from "../fixtures/vendor-series/realistic";

const out = process.argv[2];
if (!out) {
  process.stderr.write("usage: bun scripts/memory-series.ts OUT\n");
  process.exit(2);
}
for (const d of ["teach", "later"]) mkdirSync(path.join(out, d), { recursive: true });
writeFileSync(path.join(out, "plain.yaml"), "name: Memory series\n");
writeFileSync(path.join(out, "taught.yaml"), "name: Memory series\n");
const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_");
for (const s of realisticSeries()) {
  const dir = s.role === "teach" ? path.join(out, "teach") : path.join(out, "later", s.series);
  mkdirSync(dir, { recursive: true });
  const fields =
    s.role === "teach"
      ? s.confirm
      : Object.fromEntries(HEADER_FIELDS.filter((f) => s.truth[f] !== undefined).map((f) => [f, s.truth[f]]));
  writeFileSync(path.join(dir, `${safe(s.name)}.png`), await s.png());
  writeFileSync(
    path.join(dir, `${safe(s.name)}.json`),
    JSON.stringify({ class_id: s.class_id, fields }, null, 2) + "\n",
  );
}
process.stdout.write(
  `wrote ${out}/teach (one copy per issuer) and ${out}/later (${["scans", "receipts", "same-vat", "untaught"].join(", ")})\n`,
);

/**
 * Regenerates the accuracy tables from the gate's recorded figures, fixtures/accuracy/floors.json: every corpus in
 * docs/accuracy.md, the invoice corpus and the OCR pages in README.md (each between `<!-- accuracy:start -->` and
 * `<!-- accuracy:end -->`). `--check`: exit 1 when a committed table is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ACCURACY_DOC, README_DOC, README_GROUPS, readFloors, withTable } from "../test/accuracy/floors";

const floors = readFloors();
let stale = false;
for (const [file, only] of [
  [ACCURACY_DOC, undefined],
  [README_DOC, README_GROUPS],
] as const) {
  const doc = readFileSync(file, "utf8");
  const fresh = withTable(doc, floors, only ? [...only] : undefined);
  const rel = path.relative(process.cwd(), file);
  if (!process.argv.includes("--check")) {
    writeFileSync(file, fresh);
    console.log(`wrote ${rel}`);
  } else if (fresh !== doc) {
    console.error(
      `${rel}: the accuracy table is not the one fixtures/accuracy/floors.json gives; run bun scripts/accuracy-table.ts`,
    );
    stale = true;
  } else console.log(`${rel}: up to date`);
}
if (stale) process.exit(1);

/**
 * Regenerates the accuracy table in docs/accuracy.md (between `<!-- accuracy:start -->` and `<!-- accuracy:end -->`)
 * from the gate's recorded figures, fixtures/accuracy/floors.json. `--check`: exit 1 when the committed table is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ACCURACY_DOC, readFloors, withTable } from "../test/accuracy/floors";

const doc = readFileSync(ACCURACY_DOC, "utf8");
const fresh = withTable(doc, readFloors());
const rel = path.relative(process.cwd(), ACCURACY_DOC);
if (process.argv.includes("--check")) {
  if (fresh !== doc) {
    console.error(`${rel}: the accuracy table is not the one fixtures/accuracy/floors.json gives; run bun scripts/accuracy-table.ts`);
    process.exit(1);
  }
  console.log(`${rel}: up to date`);
} else {
  writeFileSync(ACCURACY_DOC, fresh);
  console.log(`wrote ${rel}`);
}

/** Writes the BT mapping table of docs/einvoices-export.md from src/core/einvoice/bt-map.ts. */
import path from "node:path";
import { readFileSync } from "node:fs";
import { withBtTable } from "../src/core/einvoice/bt-table-doc";

const target = path.resolve(import.meta.dir, "../docs/einvoices-export.md");
await Bun.write(target, withBtTable(readFileSync(target, "utf8")));
console.log(`wrote ${path.relative(process.cwd(), target)}`);

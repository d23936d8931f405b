/** Writes src/core/extract/month-names.ts from the runtime's CLDR data (see month-names-cldr.ts). */
import path from "node:path";
import { monthNamesFromIntl, monthNamesModule } from "../src/core/extract/month-names-cldr";

const target = path.resolve(import.meta.dir, "../src/core/extract/month-names.ts");
await Bun.write(target, monthNamesModule(monthNamesFromIntl()));
console.log(`wrote ${path.relative(process.cwd(), target)}`);

/** Lays one gate corpus out as an eval folder, for quick loops: `bun test/accuracy/lay-out.ts <corpus id> <dir>`. */
import { mkdirSync, rmSync } from "node:fs";
import { CORPORA_LIST } from "./corpora";

const [id, dir] = process.argv.slice(2);
const corpus = CORPORA_LIST.find((c) => c.id === id);
if (!corpus || !dir) {
  console.error(`usage: bun test/accuracy/lay-out.ts <${CORPORA_LIST.map((c) => c.id).join("|")}> <dir>`);
  process.exit(2);
}
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const project = await corpus.build(dir);
if (project) console.log(JSON.stringify(project));

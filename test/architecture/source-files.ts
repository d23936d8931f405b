/** Every TypeScript file under a folder (the architecture tests scan src/ with it). */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export const SRC = path.resolve(import.meta.dir, "../../src");

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

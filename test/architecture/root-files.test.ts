/**
 * The repository root holds the project's own files only: a scratch script committed there by mistake (a profiling
 * one-off once stayed for a wave) is caught here. A new root file is added to the list on purpose.
 */
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");

const KNOWN = [
  ".dockerignore",
  ".gitignore",
  "CHANGELOG.md",
  "Dockerfile",
  "README.md",
  "biome.json",
  "bunfig.toml",
  "compose.scale.yaml",
  "compose.yaml",
  "package-lock.json",
  "package.json",
  "tsconfig.json",
];

/** Tracked root files (git), or the root's files when the tree is no git checkout (an unpacked archive). */
function rootFiles(): string[] {
  const git = Bun.spawnSync(["git", "ls-files", "--", ":(top,glob)*"], { cwd: ROOT, stderr: "ignore" });
  if (git.exitCode === 0 && git.stdout.length > 0) return git.stdout.toString().split("\n").filter(Boolean);
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

test("the repository root holds only the project's known files", () => {
  const files = rootFiles();
  expect(files).toContain("package.json");
  expect(files.filter((f) => !KNOWN.includes(f))).toEqual([]);
});

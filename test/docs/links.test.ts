/**
 * Every relative link of README.md and docs/*.md resolves: the file exists, and a `#fragment` names a heading of it
 * (GitHub's slugs). A renamed or moved page shows up here, not as a newcomer's 404.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { REPO } from "../cli/helpers";

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of stripFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slugOf(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** A `#` line in a fenced code block is no heading. */
function stripFences(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** Fenced code blocks and inline code are not links. */
function stripCode(markdown: string): string {
  return stripFences(markdown).replace(/`[^`\n]*`/g, "");
}

/** Relative link targets of a markdown file: [text](target) and [text]: target. */
export function relativeLinks(markdown: string): string[] {
  const text = stripCode(markdown);
  const targets = [
    ...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm),
  ].map((m) => m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

const files = [
  "README.md",
  ...readdirSync(path.join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

test("every relative link in README.md and docs/*.md resolves, fragments included", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    const source = path.join(REPO, file);
    for (const link of relativeLinks(readFileSync(source, "utf8"))) {
      checked++;
      const [target, fragment] = link.split("#", 2) as [string, string | undefined];
      const resolved = target === "" ? source : path.resolve(path.dirname(source), decodeURIComponent(target));
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${link} (no such file)`);
        continue;
      }
      if (
        fragment &&
        statSync(resolved).isFile() &&
        resolved.endsWith(".md") &&
        !anchorsOf(readFileSync(resolved, "utf8")).has(fragment.toLowerCase())
      ) {
        broken.push(`${file}: ${link} (no heading #${fragment})`);
      }
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(50);
});

test("the checker finds what it must: links outside code, GitHub's anchors", () => {
  const md =
    "See [a](docs/a.md#b-c) and [x](https://example.com), `[not](a link)`.\n```\n[nor](this.md)\n```\n[ref]: ../up.md\n";
  expect(relativeLinks(md)).toEqual(["docs/a.md#b-c", "../up.md"]);
  expect(slugOf("Accuracy: `docproc eval` over the repository's corpora")).toBe(
    "accuracy-docproc-eval-over-the-repositorys-corpora",
  );
  expect(anchorsOf("# A\n## A\n```\n# not a heading\n```\n")).toEqual(new Set(["a", "a-1"]));
});

test("no page promises a command that does not exist", async () => {
  const { COMMANDS } = await import("../../src/commands/index");
  const known = new Set(Object.keys(COMMANDS));
  const missing: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(path.join(REPO, file), "utf8").matchAll(/`docproc ([a-z][a-z-]*)/g)) {
      if (!known.has(m[1])) missing.push(`${file}: docproc ${m[1]}`);
    }
  }
  expect(missing).toEqual([]);
});

/**
 * The run-time regexes of labels, cue words and allowed values bound words with alternations of two property
 * escapes (src/core/extract/word-bounds.ts) instead of one `[\p{L}\p{N}]` class, which JavaScriptCore builds anew for
 * every regex. The two forms MUST find exactly the same matches: compared here for every label, cue word and
 * allowed value of the default project, over the text of the invoice corpus and over each label set between letters,
 * digits, signs and ordinals.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { labelRegex } from "../../../src/core/extract/label-regex";
import { fold } from "../../../src/core/extract/fuzzy";
import { defaultProject } from "../../../src/core/project";
import { convertSource } from "../../../src/core/stages/convert";
import { NO_ALNUM_AFTER, NO_ALNUM_BEFORE } from "../../../src/core/extract/word-bounds";

const CORPUS = path.resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The label regex as it was written with `[\p{L}\p{N}]` classes (the reference). */
function classLabelRegex(label: string): RegExp {
  const anchored = label.startsWith("^");
  const bare = fold(anchored ? label.slice(1) : label);
  const tokens = bare.toLowerCase().trim().split(/\s+/).map(escape);
  const tail = /[\p{L}\p{N}]$/u.test(bare) ? "(?!(?![ºª])[\\p{L}\\p{N}])" : "";
  const head = anchored ? "^\\s*" : /^[\p{L}\p{N}]/u.test(bare) ? "(?<![\\p{L}\\p{N}])" : "(?<![\\p{L}\\p{N}#])";
  return new RegExp(`${head}${tokens.join("[\\s.\\-]*")}\\.?${tail}`, "giu");
}

/** Every string of the default project in a list named `key`, wherever it is. */
function listsNamed(key: string, node: unknown = defaultProject, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) listsNamed(key, v, out);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === key && Array.isArray(v)) for (const s of v) if (typeof s === "string") out.add(s);
      listsNamed(key, v, out);
    }
  }
  return out;
}

const matches = (re: RegExp, text: string) => [...text.matchAll(re)].map((m) => `${m.index}:${m[0]}`);

async function corpusText(): Promise<string> {
  const texts: string[] = [];
  for (const name of readdirSync(CORPUS)
    .filter((n) => n.endsWith(".pdf"))
    .sort()) {
    const converted = await convertSource(
      {
        index: 0,
        filename: name,
        data: new Uint8Array(readFileSync(path.join(CORPUS, name))),
        split_policy: "auto",
      } as never,
      { firstPageNumber: 1, maxPages: 3 } as never,
    );
    texts.push(...converted.pages.map((p) => p.text));
    await converted.close?.();
  }
  return texts.join("\n");
}

test("labels, cue words and allowed values match the same with either word-boundary form", async () => {
  const corpus = await corpusText();
  expect(corpus.length).toBeGreaterThan(10_000);
  const labels = listsNamed("labels");
  const words = new Set([...listsNamed("cue_words"), ...listsNamed("negative_cue_words"), ...listsNamed("values")]);
  expect(labels.size).toBeGreaterThan(150);
  expect(words.size).toBeGreaterThan(50);
  let compared = 0;
  let found = 0;
  for (const label of labels) {
    const bare = fold(label.replace(/^\^/, "")).toLowerCase();
    // The label between letters, digits, signs and ordinals, accented and not.
    const edges = ["", "x", "é", "1", "#", " ", "-", "º", "ª", "ß"].flatMap((a) =>
      ["", "s", "é", "1", "º", "ª", ".", ":", " 12"].map((b) => `${a}${bare}${b}`),
    );
    for (const text of [corpus, fold(corpus).toLowerCase(), edges.join("\n"), edges.join(" ")]) {
      const reference = matches(classLabelRegex(label), text);
      expect(matches(labelRegex(label), text)).toEqual(reference);
      compared++;
      found += reference.length;
    }
  }
  for (const word of words) {
    const body = escape(fold(word.toLowerCase()));
    const reference = new RegExp(`(?<![\\p{L}\\p{N}])${body}(?:s|es)?(?![\\p{L}\\p{N}])`, "giu");
    const rewritten = new RegExp(`${NO_ALNUM_BEFORE}${body}(?:s|es)?${NO_ALNUM_AFTER}`, "giu");
    const edges = ["", "x", "é", "1", " "]
      .flatMap((a) => ["", "s", "es", "é", "1", " "].map((b) => `${a}${word}${b}`))
      .join("\n");
    for (const text of [fold(corpus).toLowerCase(), edges, fold(edges).toLowerCase()]) {
      const expected = matches(reference, text);
      expect(matches(rewritten, text)).toEqual(expected);
      compared++;
      found += expected.length;
    }
  }
  // The comparison saw real matches, not only empty lists.
  expect(found).toBeGreaterThan(1_000);
  expect(compared).toBeGreaterThan(800);
}, 120_000);

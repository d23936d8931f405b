/**
 * Every `docproc …` line a newcomer may copy runs as written, as far as the command line goes: the command exists
 * and oclif accepts its arguments and flags (no renamed or missing flag, no missing argument). Checked for each
 * command's `--help` examples and for the command lines in README.md and docs/*.md (code blocks and table cells).
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Parser, type Command } from "@oclif/core";
import { COMMANDS } from "../../src/commands/index";
import { REPO } from "../cli/helpers";

/** Shell words of a command line, with a leading VAR=value, a trailing comment, a pipe or a redirect dropped. */
export function wordsOf(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const word = m[1] ?? m[2] ?? m[3]!;
    if (m[3] !== undefined && (/^(#|\||>|2>|&&|;)/.test(word) || word === "\\")) break;
    words.push(word);
  }
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift();
  return words;
}

/** `docproc …` lines of the markdown files: in sh code blocks and in backticked table cells. */
function documentedLines(): Array<{ where: string; line: string }> {
  const files = [
    "README.md",
    ...readdirSync(path.join(REPO, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const found: Array<{ where: string; line: string }> = [];
  for (const file of files) {
    const md = readFileSync(path.join(REPO, file), "utf8");
    for (const block of md.matchAll(/^```(?:sh|bash)?\n([\s\S]*?)^```/gm)) {
      for (const line of block[1]!.split("\n"))
        if (/^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*docproc\s/.test(line.trim())) found.push({ where: file, line: line.trim() });
    }
    for (const row of md.matchAll(/^\|.*\| `(docproc [^`]+)` \|$/gm)) found.push({ where: file, line: row[1]! });
  }
  return found;
}

async function problemOf(line: string): Promise<string | null> {
  // A usage synopsis (`[--tenant T]`, `a | b`) describes a command line rather than being one.
  if (/\[--|\.\.\.\]/.test(line)) return null;
  const words = wordsOf(line);
  const [bin, id, ...argv] = words.slice(words.indexOf("docproc"));
  if (bin !== "docproc" || !id || id.startsWith("-")) return null;
  const Cmd = COMMANDS[id] as (Command.Class & { strict?: boolean }) | undefined;
  if (!Cmd) return `no command "${id}"`;
  try {
    // Placeholders such as <transaction_id> or 3f0c… stand for a value: oclif only checks that one is there.
    await Parser.parse(argv, { flags: Cmd.flags ?? {}, args: Cmd.args ?? {}, strict: Cmd.strict ?? true });
    return null;
  } catch (err) {
    return (err as Error).message.split("\n")[0]!;
  }
}

test("the words of a command line: quotes kept together, env assignments and redirects dropped", () => {
  expect(wordsOf(`ADMIN_API_KEY=x docproc serve --data "my data" > log # note`)).toEqual([
    "docproc",
    "serve",
    "--data",
    "my data",
  ]);
  expect(wordsOf("docproc process in/ --json | jq .")).toEqual(["docproc", "process", "in/", "--json"]);
});

test("every help example of every command parses", async () => {
  const broken: string[] = [];
  let checked = 0;
  for (const [id, Cmd] of Object.entries(COMMANDS)) {
    for (const example of (Cmd.examples ?? []) as Array<string | { command: string }>) {
      const text = (typeof example === "string" ? example : example.command)
        .replaceAll("<%= config.bin %>", "docproc")
        .replaceAll("<%= command.id %>", id);
      for (const line of text.split("\n").filter((l) => wordsOf(l).includes("docproc"))) {
        checked++;
        const problem = await problemOf(line);
        if (problem) broken.push(`${id} example "${line}": ${problem}`);
      }
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(20);
});

test("every docproc command line in README.md and docs/*.md parses", async () => {
  const broken: string[] = [];
  const lines = documentedLines();
  for (const { where, line } of lines) {
    const problem = await problemOf(line);
    if (problem) broken.push(`${where}: ${line}: ${problem}`);
  }
  expect(broken).toEqual([]);
  expect(lines.length).toBeGreaterThan(30);
});

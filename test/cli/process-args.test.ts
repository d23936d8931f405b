/** `docproc process` read without oclif (src/cli/process-args.ts): the same flags, the same reading, or oclif's. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Parser } from "@oclif/core";
import ProcessCommand from "../../src/commands/process";
import {
  parseProcessArgs,
  PROCESS_FLAGS,
  processOptionsOf,
  type ProcessFlag,
  type ProcessFlagValues,
} from "../../src/cli/process-args";

const ROOT = path.resolve(import.meta.dir, "../..");

async function oclifParse(words: string[]) {
  const { argv, flags } = await Parser.parse(words, {
    flags: ProcessCommand.flags,
    args: ProcessCommand.args,
    strict: ProcessCommand.strict,
  });
  return { argv: argv as string[], flags: flags as ProcessFlagValues };
}

describe("PROCESS_FLAGS", () => {
  test("are ProcessCommand's flags: names, kinds, ranges, choices and defaults", () => {
    const fromOclif: Record<string, ProcessFlag> = {};
    for (const [name, def] of Object.entries(ProcessCommand.flags)) {
      const d = def as unknown as Record<string, unknown>;
      // What parseProcessArgs does not read MUST NOT be there: short forms, variables, repeats, --no-.
      const unread = { name, char: d.char, env: d.env, multiple: Boolean(d.multiple), allowNo: Boolean(d.allowNo) };
      expect(unread).toEqual({ name, char: undefined, env: undefined, multiple: false, allowNo: false });
      if (d.type === "boolean") fromOclif[name] = { type: "boolean" };
      else if (d.min !== undefined)
        fromOclif[name] = {
          type: "integer",
          min: d.min as number,
          ...(d.max !== undefined ? { max: d.max as number } : {}),
        };
      else
        fromOclif[name] = {
          type: "string",
          ...(d.options ? { options: d.options as string[] } : {}),
          ...(d.default !== undefined ? { default: d.default as string } : {}),
        };
    }
    expect(PROCESS_FLAGS).toEqual(fromOclif);
  });

  test("the only flags that need or exclude others are the ones parseProcessArgs checks", () => {
    const links = Object.entries(ProcessCommand.flags).flatMap(([name, def]) => {
      const d = def as unknown as {
        dependsOn?: string[];
        exclusive?: string[];
        exactlyOne?: string[];
        relationships?: unknown;
      };
      return d.dependsOn || d.exclusive || d.exactlyOne || d.relationships
        ? [
            {
              name,
              dependsOn: d.dependsOn,
              exclusive: d.exclusive,
              exactlyOne: d.exactlyOne,
              relationships: d.relationships,
            },
          ]
        : [];
    });
    expect(links).toEqual([
      { name: "force", dependsOn: ["data"], exclusive: undefined, exactlyOne: undefined, relationships: undefined },
      { name: "quiet", dependsOn: undefined, exclusive: ["verbose"], exactlyOne: undefined, relationships: undefined },
      { name: "verbose", dependsOn: undefined, exclusive: ["quiet"], exactlyOne: undefined, relationships: undefined },
    ]);
  });
});

/** Argument lists users write; each MUST be read (not left to oclif). */
const PLAIN: string[][] = [
  ["a.pdf"],
  ["a.pdf", "--out", "results", "--json"],
  ["--json", "a.pdf", "b/", "--out=results"],
  ["inbox", "--concurrency", "3", "--page-limit=10", "--project", "p.yaml"],
  ["scan.pdf", "--password", "s3cret", "--format", "json,csv", "--ocr-engine", "wasm"],
  ["/srv/scans", "--data", "/var/lib/docproc", "--force", "--json", "--quiet"],
  ["x.pdf", "--name-by", "source", "--verbose", "--password=a=b"],
  ["x.pdf", "--concurrency", "08", "--page-limit", "1"],
];

/** Lists left to oclif: its answer (or its message) is the one users get. */
const LEFT_TO_OCLIF: string[][] = [
  [],
  ["--json"],
  ["a.pdf", "--help"],
  ["a.pdf", "-h"],
  ["a.pdf", "--"],
  ["a.pdf", "--", "--json"],
  ["a.pdf", "--jsn"],
  ["a.pdf", "--out"],
  ["a.pdf", "--out", "--json"],
  ["a.pdf", "--out="],
  ["a.pdf", "--out", "a", "--out", "b"],
  ["a.pdf", "--json", "--json"],
  ["a.pdf", "--json=true"],
  ["a.pdf", "--concurrency", "0"],
  ["a.pdf", "--concurrency", "65"],
  ["a.pdf", "--concurrency", "1.5"],
  ["a.pdf", "--concurrency", "-1"],
  ["a.pdf", "--page-limit", "x"],
  ["a.pdf", "--ocr-engine", "tesseract"],
  ["a.pdf", "--name-by", "stem"],
  ["a.pdf", "--force"],
  ["a.pdf", "--quiet", "--verbose"],
  ["a.pdf", "--no-json"],
  ["a.pdf", "-"],
  ["a.pdf", "--toString"],
  ["a.pdf", "--__proto__", "x"],
];

describe("parseProcessArgs", () => {
  test("reads the plain lists exactly as oclif does", async () => {
    for (const words of PLAIN) {
      const fast = parseProcessArgs(words);
      expect({ words, fast }).toEqual({ words, fast: await oclifParse(words) });
    }
  });

  test("leaves everything else to oclif", () => {
    for (const words of LEFT_TO_OCLIF) expect({ words, fast: parseProcessArgs(words) }).toEqual({ words, fast: null });
  });

  test("on 5,000 random lists it either reads what oclif reads or leaves the list to oclif", async () => {
    const vocabulary = [
      "a.pdf",
      "dir",
      "x y.pdf",
      "b.pdf",
      "inbox/",
      "c.png",
      "0",
      "1",
      "64",
      "65",
      "007",
      "-3",
      "=",
      "wasm",
      "source",
      "json,csv",
      "--",
      "-",
      "-q",
      ...Object.keys(PROCESS_FLAGS).flatMap((f) => [`--${f}`, `--${f}=1`, `--${f}=wasm`, `--${f}=`]),
    ];
    let seed = 34;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let read = 0;
    for (let i = 0; i < 5000; i++) {
      const words = Array.from({ length: 1 + next(6) }, () => vocabulary[next(vocabulary.length)]!);
      const fast = parseProcessArgs(words);
      if (!fast) continue;
      read++;
      expect({ words, fast }).toEqual({ words, fast: await oclifParse(words) });
    }
    expect(read).toBeGreaterThan(400); // the comparison covered many lists, not only the refused ones
  });

  test("hands runProcess the options ProcessCommand hands it", async () => {
    const words = ["in", "--data", "d", "--force", "--quiet", "--ocr-engine=native", "--page-limit", "2"];
    const { argv, flags } = await oclifParse(words);
    const fast = parseProcessArgs(words)!;
    expect(processOptionsOf(fast.argv, fast.flags)).toEqual(processOptionsOf(argv, flags));
    expect(processOptionsOf(fast.argv, fast.flags)).toMatchObject({
      paths: ["in"],
      out: "./docproc-out",
      data: "d",
      force: true,
      verbosity: "quiet",
      ocrEngine: "native",
      pageLimit: 2,
      nameBy: "transaction",
    });
  });
});

test("a plain `docproc process` of a PDF loads neither oclif nor another command", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-process-args-"));
  try {
    const pdf = path.resolve(ROOT, "fixtures/corpora/invoice2data/AmazonWebServices.pdf");
    const script = `
      const { main } = await import("./src/cli");
      const code = await main(["process", ${JSON.stringify(pdf)}, "--out", ${JSON.stringify(dir)}, "--json"]);
      const loaded = Object.keys(require.cache);
      console.log(JSON.stringify({ code, oclif: loaded.filter((k) => k.includes("/@oclif/")).length,
        commands: loaded.filter((k) => k.includes("/src/commands/")).map((k) => k.slice(k.indexOf("/src/"))) }));
    `;
    const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(out.trim().split("\n").pop()!)).toEqual({ code: 0, oclif: 0, commands: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

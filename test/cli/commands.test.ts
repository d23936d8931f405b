/**
 * The command map as a whole: every command has a summary, a description and an example that parses against that
 * very command (topic verbs included: `docproc mail add …` is checked against `mail add`, not the topic); every
 * option flag names its value the same way (`<dir>`, `<file>`, `<url>`, `<id>`, …); the root help is one screen
 * grouped by task; each verb's help shows its own flags only; and the bash completion script, sourced in a real
 * bash, completes commands, verbs, flags and flag values.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { Parser, type Command } from "@oclif/core";
import { COMMANDS, GROUPS, resolveCommand, TOPICS } from "../../src/commands/index";
import { runCli } from "./helpers";

const examplesOf = (id: string, Cmd: Command.Class) =>
  ((Cmd.examples ?? []) as Array<string | { command: string }>).map((e) =>
    (typeof e === "string" ? e : e.command)
      .replaceAll("<%= config.bin %>", "docproc")
      .replaceAll("<%= command.id %>", id.replace(":", " ")),
  );

/** The words after `docproc` of an example line: quotes kept together; stops at a pipe, redirect or comment. */
function argvOf(line: string): string[] {
  const words: string[] = [];
  const start = /(?:^|\s)docproc\s/.exec(line)!;
  for (const m of line.slice(start.index + start[0].length).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    if (m[3] !== undefined && /^(#|\||>|2>|&&|;)/.test(m[3])) break;
    words.push(m[1] ?? m[2] ?? m[3]!);
  }
  return words;
}

describe("the command map", () => {
  test("every command has a summary, a description or summary text, and at least one example", () => {
    const missing: string[] = [];
    for (const [id, Cmd] of Object.entries(COMMANDS)) {
      if (!Cmd.summary?.trim()) missing.push(`${id}: summary`);
      if (!(Cmd.description ?? Cmd.summary)?.trim()) missing.push(`${id}: description`);
      if (examplesOf(id, Cmd).length === 0) missing.push(`${id}: example`);
    }
    expect(missing).toEqual([]);
  });

  test("every option flag has a helpValue in the one style: <word>", () => {
    const bad: string[] = [];
    let options = 0;
    for (const [id, Cmd] of Object.entries(COMMANDS)) {
      for (const [name, flag] of Object.entries(Cmd.flags ?? {})) {
        const f = flag as { type: string; helpValue?: string };
        if (f.type !== "option") continue;
        options++;
        if (!/^<[a-z][a-z0-9,-]*>$/.test(f.helpValue ?? "")) bad.push(`${id} --${name}: ${f.helpValue ?? "(none)"}`);
      }
    }
    expect(bad).toEqual([]);
    expect(options).toBeGreaterThan(60);
  });

  test("every example parses against the command it runs (a topic's verb, not the topic)", async () => {
    const broken: string[] = [];
    let checked = 0;
    for (const [id, Cmd] of Object.entries(COMMANDS)) {
      for (const line of examplesOf(id, Cmd)) {
        const found = resolveCommand(argvOf(line));
        if (!found) {
          broken.push(`${id}: "${line}": no such command`);
          continue;
        }
        if (TOPICS[found.id]) continue; // a topic's own examples are its verbs' (checked under the verb)
        if (id.includes(":") && found.id !== id) broken.push(`${id}: "${line}" runs ${found.id}`);
        checked++;
        const C = found.Cmd;
        await Parser.parse(found.rest, { flags: C.flags ?? {}, args: C.args ?? {}, strict: C.strict ?? true }).catch(
          (err: Error) => broken.push(`${id}: "${line}": ${err.message.split("\n")[0]}`),
        );
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(35);
  });

  test("a topic's bare class still runs the verb given first (the old `tenants ACTION` shape, for callers of the map)", async () => {
    const { cliConfig } = await import("../../src/commands/dispatch");
    const Tenants = COMMANDS.tenants as unknown as new (
      argv: string[],
      config: unknown,
    ) => { _run(): Promise<unknown> };
    const cmd = new Tenants(["list", "--data", "/nonexistent/docproc-data"], await cliConfig());
    // The verb's own code ran: it refuses a directory without a database (a DocprocError, exit code 2).
    const exitCode = process.exitCode;
    await expect(cmd._run()).rejects.toThrow("no docproc database in /nonexistent/docproc-data");
    // oclif's catch set this test process's exit code (the CLI's own runCli exits with dispatch's code instead): the
    // test runner ended with 1 though every test passed. Bun does not reset it to undefined, hence the 0.
    process.exitCode = exitCode ?? 0;
  });

  test("every verb of a topic is its own command; every top-level command is in one group of the root help", () => {
    expect(Object.keys(TOPICS).sort()).toEqual(["clients", "deliveries", "keys", "mail", "memory", "tenants", "users"]);
    for (const t of Object.values(TOPICS))
      for (const verb of Object.keys(t.verbs)) expect(COMMANDS[`${t.name}:${verb}`]).toBe(t.verbs[verb]!);
    const grouped = GROUPS.flatMap((g) => g.commands).sort();
    expect(grouped).toEqual(
      Object.keys(COMMANDS)
        .filter((id) => !id.includes(":"))
        .sort(),
    );
  });
});

describe("docs", () => {
  test("every `docproc <topic> <verb> …` in README.md and docs/*.md names a real verb and only that verb's flags", () => {
    const root = `${import.meta.dir}/../..`;
    const files = [
      "README.md",
      ...readdirSync(`${root}/docs`)
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const bad: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(`${root}/${file}`, "utf8");
      for (const m of text.matchAll(/docproc ([a-z]+) ([a-z|]+)((?: [^`\n]*)?)/g)) {
        const topic = TOPICS[m[1]!];
        if (!topic) continue;
        for (const verb of m[2]!.split("|")) {
          checked++;
          const Verb = topic.verbs[verb];
          if (!Verb) {
            bad.push(`${file}: docproc ${m[1]} ${verb}: no such verb`);
            continue;
          }
          const known = [...Object.keys(Verb.flags ?? {}), "help"];
          // `--rate-limit-…`: a flag name cut short in prose stands for the flags it begins.
          const isKnown = (f: string) => (f.endsWith("-") ? known.some((k) => k.startsWith(f)) : known.includes(f));
          for (const f of m[3]!.matchAll(/(?:^|\s)--(?:no-)?([a-z][a-z-]*)/g))
            if (!isKnown(f[1]!)) bad.push(`${file}: docproc ${m[1]} ${verb}: --${f[1]}`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});

describe("help", () => {
  test("the root help is short and grouped by task", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(32);
    for (const g of GROUPS) expect(r.stdout).toContain(`${g.title}:`);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
  });

  test("a verb's help lists its own flags only; a topic's help lists its verbs", async () => {
    const add = await runCli(["mail", "add", "--help"]);
    expect(add.code).toBe(0);
    expect(add.stdout).toContain("$ docproc mail add --host <host> --username <user>");
    expect(add.stdout).toContain("--skip-inline-below=<bytes>");
    for (const other of ["--state", "--once", "--connector"]) expect(add.stdout).not.toContain(other);
    const topic = await runCli(["mail"]);
    expect(topic.code).toBe(0);
    expect(topic.stdout).toMatch(/^ {2}add\s+Store an IMAP connector/m);
    expect((await runCli(["help", "keys", "revoke"])).stdout).toContain("$ docproc keys revoke CLIENT_ID KEY_ID");
  });

  test("an unknown verb or a topic without one is a usage error (exit 2) naming the verbs", async () => {
    const typo = await runCli(["keys", "crate", "erp"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'docproc: unknown command "keys crate". Did you mean "docproc keys create"? Verbs: create, list, revoke. See docproc keys --help.',
    );
    const noVerb = await runCli(["tenants", "--data", "x"]);
    expect(noVerb.code).toBe(2);
    expect(noVerb.stderr).toContain("Verbs: create, list");
    const flag = await runCli(["keys", "create", "erp", "--descripton", "x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown flag --descripton for keys create. Did you mean "--description"?');
  });
});

describe("shell completion", () => {
  /** COMPREPLY of the generated bash script for a command line typed up to the cursor (the last word). */
  async function complete(script: string, words: string[]): Promise<string[]> {
    const quoted = words.map((w) => `'${w}'`).join(" ");
    const proc = Bun.spawn(
      [
        "bash",
        "--norc",
        "--noprofile",
        "-c",
        `source /dev/stdin; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _docproc; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { stdin: new TextEncoder().encode(script), stdout: "pipe", stderr: "pipe", cwd: import.meta.dir },
    );
    const [out, err, code] = [
      await new Response(proc.stdout).text(),
      await new Response(proc.stderr).text(),
      await proc.exited,
    ];
    expect(err).toBe("");
    expect(code).toBe(0);
    return out.split("\n").filter(Boolean).sort();
  }

  test("bash: docproc ma<TAB> → mail; docproc mail <TAB> → its verbs; flags and their values", async () => {
    const r = await runCli(["completion", "bash"]);
    expect(r.code).toBe(0);
    expect(await complete(r.stdout, ["docproc", "ma"])).toEqual(["mail"]);
    expect(await complete(r.stdout, ["docproc", "mail", ""])).toEqual(["add", "list", "messages", "remove", "run"]);
    expect(await complete(r.stdout, ["docproc", "keys", "re"])).toEqual(["revoke"]);
    expect(await complete(r.stdout, ["docproc", "mail", "add", "--ho"])).toEqual(["--host"]);
    expect(await complete(r.stdout, ["docproc", "mail", "run", "--ho"])).toEqual([]);
    expect(await complete(r.stdout, ["docproc", "process", "--ocr-engine", ""])).toEqual(["auto", "native", "wasm"]);
    // A plain word completes file names (here: this test file's folder).
    expect(await complete(r.stdout, ["docproc", "process", "commands.te"])).toEqual(["commands.test.ts"]);
  });

  test("zsh and fish scripts name every command; an unknown shell is a usage error", async () => {
    const zsh = await runCli(["completion", "zsh"]);
    expect(zsh.stdout).toStartWith("#compdef docproc\n");
    expect(zsh.stdout).toContain("bashcompinit");
    const fish = await runCli(["completion", "fish"]);
    for (const id of Object.keys(COMMANDS).filter((c) => !c.includes(":")))
      expect(fish.stdout).toContain(`-n __fish_use_subcommand -a '${id}'`);
    expect(fish.stdout).toContain("-a 'revoke'");
    expect((await runCli(["completion", "tcsh"])).code).toBe(2);
  });
});

/** CLI polish: did-you-mean, colour only on a terminal without NO_COLOR, each failing file named once, --data checks. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { paintFor } from "../../src/cli/colour";
import { nameOnce } from "../../src/cli/messages";
import { closest, editDistance } from "../../src/cli/suggest";
import { runCli } from "../cli/helpers";
import { makeTempDir } from "../support/temp";

const tmp = makeTempDir("ops-cli");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("did you mean", () => {
  test("edit distance counts a swapped pair once; only close names are offered", () => {
    expect(editDistance("wtach", "watch")).toBe(1);
    expect(editDistance("procss", "process")).toBe(1);
    expect(closest("serv", ["serve", "worker"])).toBe("serve");
    expect(closest("jsno", ["json", "out"])).toBe("json");
    expect(closest("xyzzy", ["process", "watch", "serve"])).toBeNull();
    expect(closest("exp", ["export", "eval"])).toBe("export");
  });

  test("unknown commands and flags: one line with the suggestion, exit 2", async () => {
    const cmd = await runCli(["wtach", "inbox"]);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toStartWith('docproc: unknown command "wtach". Did you mean "docproc watch"?');
    const flag = await runCli(["process", "a.pdf", "--ouput", "x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toBe(
      'docproc: unknown flag --ouput for process. Did you mean "--out"? See docproc process --help.',
    );
    const none = await runCli(["process", "a.pdf", "--zzzzzz"]);
    expect(none.stderr.trim()).toBe("docproc: unknown flag --zzzzzz for process. See docproc process --help.");
  });
});

describe("colour", () => {
  test("escape codes only on a terminal and without NO_COLOR", () => {
    expect(paintFor({ isTTY: true }, {}).red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(paintFor({ isTTY: true }, { NO_COLOR: "1" }).red("x")).toBe("x");
    expect(paintFor({ isTTY: false }, {}).red("x")).toBe("x");
    expect(paintFor({ isTTY: true }, { TERM: "dumb" }).on).toBe(false);
  });
});

describe("errors name the file once", () => {
  test("nameOnce strips repeated prefixes and keeps the path", () => {
    expect(nameOnce("bad.pdf", "bad.pdf: bad.pdf is not a PDF")).toBe("bad.pdf is not a PDF");
    expect(nameOnce("inbox/sub/bad.pdf", "bad.pdf: bad.pdf is not a PDF")).toBe("inbox/sub/bad.pdf is not a PDF");
    expect(nameOnce("broken.pdf", "broken.pdf: not a readable PDF")).toBe("broken.pdf: not a readable PDF");
    expect(nameOnce("a.pdf", "timed out after 30 s")).toBe("a.pdf: timed out after 30 s");
  });

  test("docproc process: every failure line names its file exactly once, no escape codes in a pipe", async () => {
    const dir = path.join(tmp, "inputs");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "notes.pdf"), "not a pdf at all");
    writeFileSync(path.join(dir, "empty.pdf"), "");
    const r = await runCli([
      "process",
      path.join(dir, "notes.pdf"),
      path.join(dir, "empty.pdf"),
      "--out",
      path.join(tmp, "out"),
    ]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n").filter((l) => /^ {2}\S/.test(l) && l.includes("["));
    expect(lines).toHaveLength(2);
    for (const [line, name] of [
      [lines[0], "notes.pdf"],
      [lines[1], "empty.pdf"],
    ] as const)
      expect(line.split(name).length - 1).toBe(1);
    expect(r.stdout).not.toContain("\x1b[");
  }, 60_000);
});

describe("--data of the admin commands", () => {
  test("refuses a folder with other files and no docproc.db, and a missing one for anything but create", async () => {
    const stranger = path.join(tmp, "documents");
    mkdirSync(stranger, { recursive: true });
    writeFileSync(path.join(stranger, "letter.txt"), "hello");
    const r = await runCli(["tenants", "create", "acme", "--data", stranger]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not a docproc data directory");
    expect(existsSync(path.join(stranger, "docproc.db"))).toBe(false);

    const typo = path.join(tmp, "docproc-dat");
    const list = await runCli(["clients", "list", "--data", typo]);
    expect(list.code).toBe(2);
    expect(list.stderr.trim()).toBe(
      `docproc: no docproc database in ${typo}: give the --data of your docproc serve (its first start creates docproc.db there)`,
    );
    expect(existsSync(typo)).toBe(false);
  });

  test("create on a missing folder is the first-run set-up: it creates the database and says so", async () => {
    const fresh = path.join(tmp, "fresh-data");
    const r = await runCli(["tenants", "create", "acme", "--data", fresh, "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`creating a new data directory in ${fresh}`);
    expect(existsSync(path.join(fresh, "docproc.db"))).toBe(true);
    const again = await runCli(["tenants", "list", "--data", fresh, "--json"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
  });
});

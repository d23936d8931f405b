import { describe, expect, test } from "bun:test";
import pkg from "../../package.json" with { type: "json" };
import path from "node:path";
import { REPO, runCli } from "./helpers";

describe("docproc CLI usage", () => {
  test("--version prints the package version and the checkout's commit (from git, asked only then)", async () => {
    const r = await runCli(["--version"]);
    expect(r.code).toBe(0);
    const head = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: REPO }).stdout.toString().trim();
    expect(r.stdout).toMatch(new RegExp(`^${pkg.version.replaceAll(".", "\\.")} \\(commit ${head}(\\+changes)?\\)\n$`));
  });

  test("--help lists every command with an example", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("COMMANDS");
    expect(r.stdout).toMatch(/^\s+process\s+\S/m);
    expect(r.stdout).toContain("docproc process fixtures/inbox");
    expect(r.stdout).toContain("EXIT CODES");
  });

  test("process --help shows usage, every flag and examples", async () => {
    const r = await runCli(["process", "--help"]);
    expect(r.code).toBe(0);
    for (const flag of [
      "--project",
      "--out",
      "--concurrency",
      "--page-limit",
      "--password",
      "--json",
      "--format",
      "--data",
      "--ocr-engine",
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain("$ docproc process fixtures/inbox");
  });

  test("an unknown flag is a usage error with exit code 2", async () => {
    const r = await runCli(["process", "--no-such-flag", "x.pdf"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--no-such-flag");
  });

  test("process without a path is a usage error with exit code 2", async () => {
    const r = await runCli(["process"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Missing 1 required arg");
  });

  test("an unknown command exits 2 and names the known ones", async () => {
    const r = await runCli(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
    expect(r.stderr).toContain("process");
  });

  test("a non-numeric --concurrency is rejected with exit code 2", async () => {
    const r = await runCli(["process", "--concurrency", "many", "x.pdf"]);
    expect(r.code).toBe(2);
  });

  test("an --ocr-engine outside auto, wasm, native is a usage error naming the allowed values", async () => {
    const r = await runCli(["process", "--ocr-engine", "cuneiform", "x.pdf"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("auto, wasm, native");
  });

  test("the npm bin (bin/docproc.js) runs the CLI as a shell command and under Bun directly", async () => {
    const bin = path.join(REPO, "bin/docproc.js");
    // A POSIX shell script first (no global bun needed: test/cli/install.test.ts), a module for Bun after.
    expect((await Bun.file(bin).text()).startsWith("#!/bin/sh\n")).toBe(true);
    for (const cmd of [
      [bin, "--version"],
      [process.execPath, bin, "--version"],
    ]) {
      const proc = Bun.spawn(cmd, { stdout: "pipe" });
      expect(await new Response(proc.stdout).text()).toStartWith(`${pkg.version} (commit `);
      expect(await proc.exited).toBe(0);
    }
  });
});

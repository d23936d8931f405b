/**
 * Issue 21: only regular files and folders are read from the command line. Before, `docproc process /dev/zero`
 * grew past 2 GB and a FIFO blocked forever; now both are a usage error (exit 2) naming what the path is.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { removeAll, tempDir } from "../support/temp";
import { runCli } from "./helpers";

const temps: string[] = [];
afterAll(() => removeAll(temps));

describe("special files on the command line", () => {
  test("/dev/zero is refused at once with exit 2", async () => {
    const out = tempDir("special", temps);
    const run = await runCli(["process", "/dev/zero", "--out", out], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("/dev/zero is not a regular file (a character device)");
  });

  test("a FIFO is refused at once with exit 2 instead of blocking", async () => {
    const dir = tempDir("special", temps);
    const fifo = path.join(dir, "scan.pdf");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // runCli kills the process after 30 s: a blocked read would end with a signal, not exit 2.
    const run = await runCli(["process", fifo, "--out", path.join(dir, "out")], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("is not a regular file (a named pipe)");
  });

  test("a project file that is a device is refused as invalid settings (exit 4)", async () => {
    const out = tempDir("special", temps);
    const run = await runCli(
      ["process", "fixtures/inbox/born-digital-invoice.pdf", "--project", "/dev/zero", "--out", out],
      { timeoutMs: 30_000 },
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("not a regular file");
  });
});

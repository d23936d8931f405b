/**
 * Standard output into a pipe is complete when the process exits (issue 18): Bun's process.exit used to drop what a
 * pipe had not taken yet, so a `--json` summary above 64 KiB arrived as exactly 65,536 bytes.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { removeAll, tempDir } from "../support/temp";
import { CLI } from "../support/process";
import { INBOX } from "./helpers";

const temps: string[] = [];
afterAll(() => removeAll(temps));

test("a --json summary larger than 64 KiB reaches a pipe whole", async () => {
  const inbox = tempDir("stdout-in", temps);
  // One invoice to process and 3,000 notes the batch skips (not a document type): each is a line of the summary.
  await copyFile(path.join(INBOX, "born-digital-invoice.pdf"), path.join(inbox, "invoice.pdf"));
  const notes = 3000;
  for (let i = 0; i < notes; i++) {
    await writeFile(
      path.join(inbox, `a-note-with-a-long-name-so-the-summary-grows-quickly-${String(i).padStart(4, "0")}.txt`),
      "hello\n",
    );
  }
  const out = path.join(tempDir("stdout-out", temps), "out");
  // A shell pipe into a slow reader (it starts reading a second late), as `docproc process … --json | wc -c`.
  const saved = path.join(out + "-summary.json");
  const cmd = `"$BUN" "$CLI" process "$INBOX" --out "$OUT" --json --format json | (sleep 1; cat > "$SAVED"); exit "\${PIPESTATUS:-0}"`;
  const proc = Bun.spawn(["bash", "-c", cmd], {
    env: { ...process.env, BUN: process.execPath, CLI, INBOX: inbox, OUT: out, SAVED: saved, NO_COLOR: "1" },
    stdout: "ignore",
    stderr: "inherit",
  });
  expect(await proc.exited).toBe(0);
  const stdout = await readFile(saved, "utf8");
  expect(Buffer.byteLength(stdout)).toBeGreaterThan(64 * 1024);
  const summary = JSON.parse(stdout) as { succeeded: number; skipped: unknown[] };
  expect(summary.succeeded).toBe(1);
  expect(summary.skipped).toHaveLength(notes);
}, 150_000);

test("every write before exit is out, console.log included, whatever its size", async () => {
  const script = `
    import { stdoutFlushed, trackStdout } from "./src/cli/stdout";
    trackStdout();
    for (let i = 0; i < 30; i++) process.stdout.write("x".repeat(9999) + "\\n");
    console.log("y".repeat(70000));
    await stdoutFlushed();
    process.exit(0);
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], {
    cwd: path.resolve(import.meta.dir, "../.."),
    stdout: "pipe",
    stderr: "inherit",
  });
  // A slow reader: the pipe (64 KiB) is full long before the writer is done.
  await Bun.sleep(300);
  const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(text.length).toBe(30 * 10000 + 70001);
}, 60_000);

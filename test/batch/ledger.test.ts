import { afterEach, describe, expect, test } from "bun:test";
import { statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ledger, hashBytes, hashFile } from "../../src/storage/watch/watch-ledger";
import { removeAll, tempDir } from "../support/temp";

const dirs: string[] = [];
const dataDir = () => tempDir("ledger", dirs);
afterEach(() => removeAll(dirs));

describe("ledger", () => {
  test("claims new content once; the same content again is in progress, then finished", () => {
    const ledger = Ledger.open(dataDir());
    const first = ledger.claim("a".repeat(64), "/in/x.pdf");
    expect(first.kind).toBe("claimed");
    expect(ledger.claim("a".repeat(64), "/in/copy-of-x.pdf").kind).toBe("in_progress");
    ledger.finish("a".repeat(64), { status: "done", results_path: "/out/t_data.json" });
    const again = ledger.claim("a".repeat(64), "/in/x.pdf");
    expect(again.kind).toBe("finished");
    expect(again.entry.status).toBe("done");
    expect(again.entry.results_path).toBe("/out/t_data.json");
    ledger.close();
  });

  test("a restart re-takes a file left processing by a killed run with the same transaction id", () => {
    const dir = dataDir();
    const killed = Ledger.open(dir);
    const claim = killed.claim("b".repeat(64), "/in/y.pdf");
    killed.close(); // the run dies without finishing
    const restarted = Ledger.open(dir);
    const retake = restarted.claim("b".repeat(64), "/in/y.pdf");
    expect(retake.kind).toBe("claimed");
    expect(retake.kind === "claimed" && retake.retaken).toBe(true);
    expect(retake.entry.transaction_id).toBe(claim.entry.transaction_id);
    expect(retake.entry.attempts).toBe(2);
    restarted.finish("b".repeat(64), { status: "done" });
    expect(restarted.claim("b".repeat(64), "/in/y.pdf").kind).toBe("finished");
  });

  test("a file interrupted three times ends failed instead of being retried forever", () => {
    const dir = dataDir();
    for (let i = 0; i < 3; i++) {
      const l = Ledger.open(dir);
      expect(l.claim("c".repeat(64), "/in/z.pdf").kind).toBe("claimed");
      l.close();
    }
    const last = Ledger.open(dir).claim("c".repeat(64), "/in/z.pdf");
    expect(last.kind).toBe("finished");
    expect(last.entry.status).toBe("failed");
    expect(last.entry.error).toContain("interrupted 3 times");
  });

  test("force re-takes finished content under a new transaction id", () => {
    const ledger = Ledger.open(dataDir());
    const first = ledger.claim("d".repeat(64), "/in/w.pdf");
    ledger.finish("d".repeat(64), { status: "failed", error: "corrupt" });
    const forced = ledger.claim("d".repeat(64), "/in/w.pdf", { force: true });
    expect(forced.kind).toBe("claimed");
    expect(forced.entry.transaction_id).not.toBe(first.entry.transaction_id);
    expect(forced.entry.error).toBeNull();
  });

  test("only the claiming run may finish an entry", () => {
    const dir = dataDir();
    const a = Ledger.open(dir);
    a.claim("e".repeat(64), "/in/v.pdf");
    const b = Ledger.open(dir);
    expect(() => b.finish("e".repeat(64), { status: "done" })).toThrow(/not claimed by this run/);
  });

  test("hashFile matches the sha256 of the bytes", async () => {
    const file = path.join(dataDir(), "f.bin");
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    await Bun.write(file, bytes);
    expect(await hashFile(file)).toBe(hashBytes(bytes));
  });
});

describe("ledger hash cache", () => {
  test("an unchanged file is not re-read; a rewritten one is hashed again", async () => {
    const dir = dataDir();
    const ledger = Ledger.open(dir);
    const file = path.join(dir, "doc.pdf");
    const fixed = new Date("2024-05-01T10:00:00Z");
    writeFileSync(file, "first version");
    utimesSync(file, fixed, fixed);
    const first = await ledger.hashOf(file);
    expect(first).toBe(hashBytes(new TextEncoder().encode("first version")));
    // Same size and mtime, different bytes, written in place: the cache answers (it was not re-read)…
    const ino = statSync(file).ino;
    writeFileSync(file, "FIRST VERSION");
    utimesSync(file, fixed, fixed);
    expect(statSync(file).ino).toBe(ino);
    expect(await ledger.hashOf(file)).toBe(first);
    // …while any change of size or mtime reads the file again.
    await Bun.write(file, "second version, longer");
    expect(await ledger.hashOf(file)).toBe(hashBytes(new TextEncoder().encode("second version, longer")));
    expect(await ledger.hashOf(path.join(dir, "missing.pdf"))).toBeNull();
    ledger.close();
  });
});

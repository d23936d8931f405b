import { afterAll, describe, expect, test } from "bun:test";
import { utimesSync } from "node:fs";
import path from "node:path";
import { folderMetadata, relativeUnder } from "../../src/batch/folder-meta";
import { filesystemTypeOf, needsPolling } from "../../src/batch/fs-kind";
import { moveInto } from "../../src/batch/move";
import { StabilityTracker } from "../../src/batch/stability";
import { removeAll, tempDir } from "./helpers";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

const MOUNTS = [
  "/dev/sda1 / ext4 rw,relatime 0 0",
  "server:/export /mnt/scans nfs4 rw,relatime 0 0",
  "//nas/share /mnt/smb cifs rw 0 0",
  "user@host:/data /mnt/ssh\\040share fuse.sshfs rw 0 0",
  "tmpfs /mnt/scans/local tmpfs rw 0 0",
].join("\n");

describe("network filesystem detection", () => {
  test("folders on NFS, SMB and sshfs need polling; local ones and local mounts inside a share do not", () => {
    expect(needsPolling("/mnt/scans/inbox", MOUNTS)).toBe(true);
    expect(needsPolling("/mnt/smb", MOUNTS)).toBe(true);
    expect(needsPolling("/mnt/ssh share/x", MOUNTS)).toBe(true);
    expect(needsPolling("/mnt/scans/local/inbox", MOUNTS)).toBe(false);
    expect(needsPolling("/home/me/inbox", MOUNTS)).toBe(false);
    expect(filesystemTypeOf("/mnt/scansX", MOUNTS)).toBe("ext4");
  });
});

describe("folder metadata", () => {
  test("subfolders map to folder, folder_0, folder_1", () => {
    expect(folderMetadata("/srv/inbox", "/srv/inbox/acme/invoices/x.pdf")).toEqual({
      folder: "acme/invoices",
      folder_0: "acme",
      folder_1: "invoices",
      watch_root: "/srv/inbox",
      source_path: "/srv/inbox/acme/invoices/x.pdf",
    });
    expect(folderMetadata("/srv/inbox", "/srv/inbox/x.pdf").folder).toBe("");
    expect(relativeUnder("/srv/inbox", "/srv/inbox/acme/x.pdf")).toBe(path.join("acme", "x.pdf"));
  });
});

describe("stability tracker", () => {
  test("hands a file over only after size and mtime stayed unchanged for the stable time", async () => {
    const dir = tempDir("stable", cleanup);
    const file = path.join(dir, "a.pdf");
    await Bun.write(file, "part 1");
    let clock = 0;
    const ready: string[] = [];
    const t = new StabilityTracker({
      stableMs: 1000,
      pollMs: 10_000,
      now: () => clock,
      onStable: (f) => ready.push(f),
    });
    t.track(file);
    await t.poll(); // first look: records size/mtime
    clock = 900;
    await t.poll();
    expect(ready).toEqual([]);
    await Bun.write(file, "part 1 and part 2");
    clock = 1500;
    await t.poll(); // changed: the wait starts again
    clock = 2400;
    await t.poll();
    expect(ready).toEqual([]);
    clock = 2500;
    await t.poll();
    expect(ready).toEqual([file]);
    t.stop();
  });

  test("an mtime change with the same size restarts the wait; empty and vanished files are never handed over", async () => {
    const dir = tempDir("stable", cleanup);
    const file = path.join(dir, "b.pdf");
    const empty = path.join(dir, "empty.pdf");
    await Bun.write(file, "12345");
    await Bun.write(empty, "");
    let clock = 0;
    const ready: string[] = [];
    const t = new StabilityTracker({ stableMs: 100, pollMs: 10_000, now: () => clock, onStable: (f) => ready.push(f) });
    t.track(file);
    t.track(empty);
    t.track(path.join(dir, "gone.pdf"));
    await t.poll();
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    clock = 150;
    await t.poll();
    expect(ready).toEqual([]);
    clock = 300;
    await t.poll();
    expect(ready).toEqual([file]);
    expect(t.size).toBe(1); // the empty file is still waited on; the missing one was dropped
    t.stop();
  });
});

describe("moving originals", () => {
  test("never overwrites: a taken name gets (2), (3)", async () => {
    const dir = tempDir("move", cleanup);
    const dest = path.join(dir, "processed");
    for (let i = 0; i < 3; i++) {
      await Bun.write(path.join(dir, "x.pdf"), `v${i}`);
      await moveInto(path.join(dir, "x.pdf"), dest, "x.pdf");
    }
    const names = [...new Bun.Glob("*").scanSync({ cwd: dest })].sort();
    expect(names).toEqual(["x (2).pdf", "x (3).pdf", "x.pdf"]);
    expect(await Bun.file(path.join(dest, "x (3).pdf")).text()).toBe("v2");
  });
});

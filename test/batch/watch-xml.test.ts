/**
 * `docproc watch` takes a UBL/CII e-invoice dropped as `.xml` (checked by content once it has settled) and leaves
 * other XML where it is, with a `skipped` event naming why — no failed/ entry, no transaction.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import { removeAll } from "./helpers";
import { WatchProc, mkdirp, setupWatch } from "./watch-helpers";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));
const XR = path.resolve(import.meta.dir, "../../fixtures/corpora/einvoice-rules/xrechnung/test/instances");
const TEST_SET = path.resolve(
  import.meta.dir,
  "../../fixtures/corpora/einvoice-rules/en16931/test/Invoice-unit-UBL/BR-01.xml",
);

test("watch: an e-invoice .xml is processed, another XML is skipped with its reason and left in place", async () => {
  const s = await setupWatch(cleanup, { defaultProject: true });
  await mkdirp(s.inbox);
  const w = new WatchProc(s.args(["--stable-ms", "300", "--concurrency", "1"]));
  try {
    await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
    copyFileSync(path.join(XR, "cii/cii-br-de-1-test.xml"), path.join(s.inbox, "invoice.xml"));
    copyFileSync(TEST_SET, path.join(s.inbox, "rules.xml"));
    await w.waitFor(
      (ev) => ev.some((e) => e.event === "done") && ev.some((e) => e.event === "skipped"),
      60_000,
      "done + skipped",
    );
    const done = w.of("done");
    expect(done.map((e) => path.basename(String(e.file)))).toEqual(["invoice.xml"]);
    expect(done[0]!.documents).toBe(1);
    const skipped = w.of("skipped");
    expect(skipped).toEqual([
      expect.objectContaining({
        file: path.join(s.inbox, "rules.xml"),
        reason: "not_a_document",
        detail: expect.stringContaining("<testSet>"),
      }),
    ]);
    expect(w.of("failed")).toHaveLength(0);
    expect(existsSync(path.join(s.inbox, "rules.xml"))).toBe(true);
  } finally {
    expect(await w.stop()).toBe(0);
  }
}, 90_000);

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../src/core/errors";
import { collectInputs } from "../../src/cli/inputs";
import { ellipsize, renderTable } from "../../src/cli/table";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tree(files: string[]): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "docproc-inputs-"));
  dirs.push(root);
  for (const f of files) {
    await mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await writeFile(path.join(root, f), "x");
  }
  return root;
}

describe("collectInputs", () => {
  test("walks folders recursively in sorted order and skips hidden files and folders", async () => {
    const root = await tree(["b.pdf", "a.pdf", "sub/c.png", ".hidden.pdf", ".git/x.pdf", "sub/.DS_Store", "A.tif"]);
    const files = await collectInputs([root]);
    expect(files.map((f) => path.relative(root, f))).toEqual(["A.tif", "a.pdf", "b.pdf", "sub/c.png"]);
  });

  test("lists a file once when it is given directly and inside a folder", async () => {
    const root = await tree(["a.pdf", "b.pdf"]);
    const files = await collectInputs([path.join(root, "a.pdf"), root]);
    expect(files.map((f) => path.basename(f))).toEqual(["a.pdf", "b.pdf"]);
  });

  test("does not walk into the excluded output folder", async () => {
    const root = await tree(["a.pdf", "docproc-out/x_data.json"]);
    const files = await collectInputs([root], { exclude: [path.join(root, "docproc-out")] });
    expect(files.map((f) => path.basename(f))).toEqual(["a.pdf"]);
  });

  test("rejects a missing path as invalid_input before doing anything", async () => {
    const err = await collectInputs(["/no/such/place.pdf"]).catch((e) => e);
    expect(err).toBeInstanceOf(DocprocError);
    expect(err.code).toBe("invalid_input");
    expect(err.message).toContain("/no/such/place.pdf");
  });
});

describe("renderTable", () => {
  test("pads columns to the widest cell and right-aligns numbers", () => {
    const out = renderTable(["file", "pages"], [["a.pdf", "1"], ["longer-name.pdf", "120"]], ["left", "right"]);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe("file             pages");
    expect(lines[2]).toBe("a.pdf                1");
    expect(lines[3]).toBe("longer-name.pdf    120");
  });

  test("ellipsize keeps both ends of a long name", () => {
    expect(ellipsize("a-very-long-file-name.pdf", 11)).toBe("a-ver…e.pdf");
    expect(ellipsize("short.pdf", 20)).toBe("short.pdf");
  });
});

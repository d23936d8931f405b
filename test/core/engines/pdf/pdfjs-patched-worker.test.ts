/**
 * The patched pdf.js worker file is found again through its recipe (src/core/engines/pdf/pdfjs-patched-worker.ts)
 * without patching the 2 MB source on every worker start, and only while the file is still exactly the patched code:
 * a changed file, a missing one or a recipe naming another digest make the next start patch and write it again.
 * Runs in its own temp dir (TMPDIR), away from the private dir other docproc processes use.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { withOwnTmpdir } from "../../../support/temp";
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

// Each test patches pdf.js and builds its bytecode several times (~2 s idle): 5 s ran out at load 20.
setDefaultTimeout(60_000);

const { loadPdfjsWorkerModule, privateDir } = await import("../../../../src/core/engines/pdf/pdfjs-patched-worker.ts");

const inOwnTmp = (body: (tmp: string) => Promise<void>) => withOwnTmpdir("recipe", body);

/** Without its bytecode copy (pdfjs-bytecode.ts, tested on its own) a start goes through the recipe and the patched file. */
function noBytecode(): void {
  const dir = privateDir();
  for (const name of readdirSync(dir)) if (/\.cjs(\.jsc|\.sha256)?$/.test(name)) unlinkSync(path.join(dir, name));
}

function state() {
  const dir = privateDir();
  const names = readdirSync(dir);
  const recipes = names.filter((n) => /^recipe\.[0-9a-f]{16}$/.test(n));
  const files = names.filter((n) => /^pdf\.worker\.[0-9a-f]{16}\.mjs$/.test(n));
  expect(recipes.length).toBe(1);
  expect(files.length).toBe(1);
  const file = path.join(dir, files[0]!);
  const digest = readFileSync(path.join(dir, recipes[0]!), "utf8");
  return {
    dir,
    file,
    recipe: path.join(dir, recipes[0]!),
    digest,
    mtime: statSync(file).mtimeMs,
    sha: createHash("sha256").update(readFileSync(file)).digest("hex"),
  };
}

test("a start finds the patched file through its recipe, and patches again when the file is not exactly that code", () =>
  inOwnTmp(async (tmp) => {
    expect(privateDir().startsWith(tmp)).toBe(true);
    expect((await loadPdfjsWorkerModule()).glyphOffsets).toBe(true);
    const first = state();
    expect(first.digest).toBe(first.sha);
    expect(path.basename(first.file)).toBe(`pdf.worker.${first.digest.slice(0, 16)}.mjs`);

    // Found again: what the recipe names is imported, without patching (a stand-in module shows it).
    const standIn = "export const WorkerMessageHandler = 'stand-in';\n";
    const standInDigest = createHash("sha256").update(standIn).digest("hex");
    writeFileSync(path.join(first.dir, `pdf.worker.${standInDigest.slice(0, 16)}.mjs`), standIn);
    writeFileSync(first.recipe, standInDigest);
    noBytecode();
    expect((await loadPdfjsWorkerModule()).WorkerMessageHandler).toBe("stand-in");
    unlinkSync(path.join(first.dir, `pdf.worker.${standInDigest.slice(0, 16)}.mjs`));
    writeFileSync(first.recipe, first.digest);
    noBytecode();
    expect((await loadPdfjsWorkerModule()).WorkerMessageHandler).not.toBe("stand-in");
    expect(state().mtime).toBe(first.mtime);

    // A changed file is written again from the patched source.
    appendFileSync(first.file, "\n// planted\n");
    noBytecode();
    expect((await loadPdfjsWorkerModule()).glyphOffsets).toBe(true);
    const healed = state();
    expect(healed.sha).toBe(first.digest);

    // A missing file, and a recipe naming another digest, too.
    unlinkSync(first.file);
    noBytecode();
    expect((await loadPdfjsWorkerModule()).glyphOffsets).toBe(true);
    expect(state().sha).toBe(first.digest);
    writeFileSync(first.recipe, "0".repeat(64));
    noBytecode();
    expect((await loadPdfjsWorkerModule()).glyphOffsets).toBe(true);
    expect(state().digest).toBe(first.digest);
  }));

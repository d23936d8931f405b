/**
 * `docproc train` end to end, spawned like a user runs it: two kinds of letters that share every cue word are
 * classified wrongly before training and rightly after it, by `docproc process --project <trained file>`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import YAML from "yaml";
import { convertSource } from "../../src/core/stages/convert";
import { loadProjectFile } from "../../src/core/project";
import { REPO, runCli } from "./helpers";

const LETTERS = path.join(REPO, "fixtures/training/letters");
const CLASSES = ["application_letter", "termination_letter"] as const;
let dir: string;

/** A born-digital PDF of a text, one line per text line (A5, Helvetica 10 pt). */
async function textPdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([420, 595]);
  text.split("\n").forEach((line, i) => page.drawText(line, { x: 30, y: 560 - i * 14, size: 10, font }));
  return pdf.save();
}

/** A greyscale "scan" of a text: its PDF rendered by the real converter, shrunk to ~150 DPI, saved as PNG. */
async function textScan(text: string): Promise<Buffer> {
  const file = await convertSource(
    { index: 0, filename: "scan.pdf", data: await textPdf(text), split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: 1 },
  );
  const raster = await file.pages[0]!.render!();
  await file.close();
  return sharp(Buffer.from(raster.data), {
    raw: { width: raster.width, height: raster.height, channels: raster.channels },
    limitInputPixels: 50_000_000,
  })
    .resize({ width: 900 })
    .greyscale()
    .png()
    .toBuffer();
}

/** Runs `docproc process --json` on files and returns the class of each file's single document, by file name. */
async function classesAfterProcess(
  project: string,
  files: string[],
): Promise<Record<string, { class_id: string; confidence: number; reasoning: string }>> {
  const out = path.join(dir, `out-${path.basename(project)}`);
  const run = await runCli(["process", ...files, "--project", project, "--out", out, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const summary = JSON.parse(run.stdout) as { files: Array<{ file: string; results_file: string }> };
  const byName: Record<string, { class_id: string; confidence: number; reasoning: string }> = {};
  for (const f of summary.files) {
    const results = JSON.parse(await readFile(path.resolve(REPO, f.results_file), "utf8"));
    expect(results.documents).toHaveLength(1);
    byName[path.basename(f.file)] = results.documents[0].classification;
  }
  return byName;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "docproc-train-"));
  await cp(LETTERS, path.join(dir, "letters"), { recursive: true });
  for (const cls of ["application", "termination"]) {
    await writeFile(
      path.join(dir, `new-${cls}.pdf`),
      await textPdf(await readFile(path.join(LETTERS, "new", `${cls}.txt`), "utf8")),
    );
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("docproc train --examples DIR --out FILE (JSON project)", () => {
  test("letters the cue rules confuse are classified right by `process` once the project is trained", async () => {
    // The same classes without listed examples: only the folder trains them.
    const raw = YAML.parse(await readFile(path.join(LETTERS, "project.yaml"), "utf8"));
    for (const cls of raw.classes) delete cls.example_documents;
    const project = path.join(dir, "letters.json");
    await writeFile(project, JSON.stringify(raw, null, 2));
    // One example per class as a born-digital PDF instead of text: it must go through the real conversion.
    const examples = path.join(dir, "folder-examples");
    await cp(path.join(LETTERS, "examples"), examples, { recursive: true });
    for (const cls of CLASSES) {
      const txt = path.join(examples, cls, (await readdir(path.join(examples, cls))).sort()[0]!);
      await writeFile(txt.replace(/\.txt$/, ".pdf"), await textPdf(await readFile(txt, "utf8")));
      await rm(txt);
    }
    await writeFile(path.join(examples, "README.md"), "not an example");
    const newDocs = ["new-application.pdf", "new-termination.pdf"].map((f) => path.join(dir, f));

    const before = await classesAfterProcess(project, newDocs);
    // Cue words alone cannot separate the two: at least one letter is misread, and each gets a tie between them.
    expect(
      before["new-application.pdf"]!.class_id === "application_letter" &&
        before["new-termination.pdf"]!.class_id === "termination_letter",
    ).toBe(false);
    expect(before["new-termination.pdf"]!.class_id).not.toBe("termination_letter");

    const trained = path.join(dir, "letters.trained.json");
    const run = await runCli(["train", "--project", project, "--examples", examples, "--out", trained]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/application_letter\s+5\s+\d+\s+\d\/5 \(\d+%\)/);
    expect(run.stdout).toMatch(/termination_letter\s+5\s+\d+\s+\d\/5 \(\d+%\)/);
    expect(run.stdout).toContain("overall leave-one-out accuracy");
    expect(run.stdout).toContain("classes without examples (decided by cue rules only): other");
    expect(run.stdout).toContain("README.md");
    expect(run.stdout).toContain(`wrote ${trained}`);
    // --out leaves the input alone and writes JSON with the model embedded.
    expect(JSON.parse(await readFile(project, "utf8")).classifier_model).toBeUndefined();
    const model = JSON.parse(await readFile(trained, "utf8")).classifier_model;
    expect(model.kind).toBe("multinomial_nb");
    expect(model.classes.map((c: { class_id: string; documents: number }) => [c.class_id, c.documents])).toEqual([
      ["application_letter", 5],
      ["termination_letter", 5],
    ]);

    const after = await classesAfterProcess(trained, newDocs);
    expect(after["new-application.pdf"]!.class_id).toBe("application_letter");
    expect(after["new-termination.pdf"]!.class_id).toBe("termination_letter");
    for (const c of Object.values(after)) {
      expect(c.confidence).toBeGreaterThan(0.6);
      expect(c.reasoning).toMatch(/classifier model [\d.]+ for \w+ \(tokens "/);
    }
    expect(after["new-termination.pdf"]!.reasoning).toMatch(/"(notice|deposit|keys|tenancy|flat)"/);
    expect(after["new-application.pdf"]!.reasoning).toMatch(/"(interview|cv|role|position|skills|team)"/);
  }, 60_000);
});

describe("docproc train --project FILE (YAML project with listed examples)", () => {
  test("reads a listed scan through OCR, keeps a backup and the comments, and writes the model into the YAML", async () => {
    const letters = path.join(dir, "letters");
    const projectFile = path.join(letters, "project.yaml");
    const original = await readFile(projectFile, "utf8");
    // One termination example becomes a scanned PNG: training must OCR it.
    const scanned = "examples/termination_letter/01-flat.txt";
    await writeFile(
      path.join(letters, "scan-01-flat.png"),
      await textScan(await readFile(path.join(LETTERS, scanned), "utf8")),
    );
    await writeFile(projectFile, original.replace(scanned, "scan-01-flat.png"));
    const listed = await readFile(projectFile, "utf8");

    const run = await runCli(["train", "--project", projectFile], { cwd: os.tmpdir() });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`(previous version: ${projectFile}.bak)`);
    expect(await readFile(`${projectFile}.bak`, "utf8")).toBe(listed);
    const written = await readFile(projectFile, "utf8");
    expect(written.startsWith(listed.split("\n")[0]!)).toBe(true); // the comment block survives
    expect(written).toContain("cue_words: [dear, sincerely, regards, letter]");

    const project = await loadProjectFile(projectFile);
    const model = project.classifier_model as { classes: Array<{ class_id: string; counts: Record<string, number> }> };
    // Words only the scan contains reached the model, so OCR read it.
    const termination = model.classes.find((c) => c.class_id === "termination_letter")!;
    expect(termination.counts.garden).toBeGreaterThan(0);
    expect(termination.counts.bristol).toBeGreaterThan(0);

    const after = await classesAfterProcess(
      projectFile,
      ["new-application.pdf", "new-termination.pdf"].map((f) => path.join(dir, f)),
    );
    expect(after["new-application.pdf"]!.class_id).toBe("application_letter");
    expect(after["new-termination.pdf"]!.class_id).toBe("termination_letter");
  }, 60_000);
});

describe("docproc train errors", () => {
  test("a class folder the project does not have is a usage error (exit 2) naming it and the known classes", async () => {
    const examples = path.join(dir, "bad-examples");
    await cp(path.join(LETTERS, "examples"), examples, { recursive: true });
    await cp(path.join(examples, "termination_letter"), path.join(examples, "invoices"), { recursive: true });
    const project = path.join(dir, "untouched.yaml");
    const text = await readFile(path.join(LETTERS, "project.yaml"), "utf8");
    await writeFile(project, text);
    const run = await runCli(["train", "--project", project, "--examples", examples]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'folder "invoices" is not a class of the project (classes: application_letter, termination_letter, other)',
    );
    expect(await readFile(project, "utf8")).toBe(text);
  });

  test("a listed example that is missing or not a document fails with exit 1 naming it; the project is not touched", async () => {
    const project = path.join(dir, "broken.json");
    const raw = {
      classes: [
        { id: "a", name: "A", example_documents: [{ text: "alpha words" }, { path: "missing.pdf" }] },
        { id: "b", name: "B", example_documents: [{ text: "beta words" }] },
      ],
      fields: {},
      validation_rules: [],
    };
    await writeFile(project, JSON.stringify(raw));
    const missing = await runCli(["train", "--project", project]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("example missing.pdf of class a could not be read: no such file");
    await writeFile(path.join(dir, "garbage.pdf"), "this is not a PDF at all");
    raw.classes[0]!.example_documents[1] = { path: "garbage.pdf" };
    await writeFile(project, JSON.stringify(raw));
    const garbage = await runCli(["train", "--project", project]);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain("example garbage.pdf of class a could not be read");
    expect(await readFile(project, "utf8")).toBe(JSON.stringify(raw));
    expect(await readdir(dir)).not.toContain("broken.json.bak");
  });

  test("an --out in a folder that does not exist is a usage error (exit 2), found before any example is read", async () => {
    const run = await runCli([
      "train",
      "--project",
      path.join(LETTERS, "project.yaml"),
      "--out",
      path.join(dir, "no-such-folder", "p.yaml"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no-such-folder does not exist");
  });

  test("examples of a single class are a usage error (exit 2): a one-class model decides nothing", async () => {
    const project = path.join(dir, "one-class.json");
    await writeFile(
      project,
      JSON.stringify({
        classes: [
          { id: "a", name: "A", example_documents: [{ text: "alpha" }] },
          { id: "other", name: "Other" },
        ],
        fields: {},
        validation_rules: [],
      }),
    );
    const run = await runCli(["train", "--project", project]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("at least two classes (found: a)");
  });
});

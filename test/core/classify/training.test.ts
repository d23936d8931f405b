/**
 * Training the statistical classifier from labelled examples, in process: two kinds of letters that share every
 * cue word (fixtures/training/letters) are told apart only once a model is trained, and the model stays out of the
 * way on documents it knows nothing about.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { evidenceFor, tokenize, trainClassifier } from "../../../src/core/classify/naive-bayes";
import { collectExamples, trainFromExamples, trainingReport } from "../../../src/core/stages/classify/train";
import { convertText } from "../../../src/core/convert/supplied";
import { DocprocError } from "../../../src/core/errors";
import { mergeOverDefault, parseProjectSettings } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";

const LETTERS = path.resolve(import.meta.dir, "../../../fixtures/training/letters");
const raw = YAML.parse(readFileSync(path.join(LETTERS, "project.yaml"), "utf8"));
/** The letters project without its listed examples: cue rules only. */
const untrained = parseProjectSettings(
  mergeOverDefault({ ...raw, classes: raw.classes.map((c: object) => ({ ...c, example_documents: [] })) }),
);
const examples = ["application_letter", "termination_letter"].flatMap((class_id) =>
  readdirSync(path.join(LETTERS, "examples", class_id))
    .sort()
    .map((f) => ({ class_id, origin: f, text: readFileSync(path.join(LETTERS, "examples", class_id, f), "utf8") })),
);
const newLetter = (name: string) =>
  convertText(readFileSync(path.join(LETTERS, "new", `${name}.txt`), "utf8"), 1).pages;
const classify = (pages: ReturnType<typeof newLetter>, project = untrained) => classifyDocument(pages, project);

describe("letters the cue rules cannot separate", () => {
  test("without a model both letter classes tie, so one of the new letters is misread", () => {
    const application = classify(newLetter("application"));
    const termination = classify(newLetter("termination"));
    const tie = (c: ReturnType<typeof classify>) =>
      [c.confidence, ...c.alternatives.map((a) => a.confidence)].slice(0, 2);
    expect(tie(application)[0]).toBe(tie(application)[1]!);
    expect(tie(termination)[0]).toBe(tie(termination)[1]!);
    expect(termination.class_id).not.toBe("termination_letter");
  });

  test("a model trained from the examples, stored as classifier_model, classifies both right and names its tokens", () => {
    const model = JSON.parse(JSON.stringify(trainFromExamples(examples)));
    const trained = parseProjectSettings({ ...untrained, classifier_model: model });
    const application = classify(newLetter("application"), trained);
    const termination = classify(newLetter("termination"), trained);
    expect(application.class_id).toBe("application_letter");
    expect(termination.class_id).toBe("termination_letter");
    expect(application.review_required).toBe(false);
    expect(termination.reasoning).toMatch(/^cue words .*; classifier model [\d.]+ for termination_letter \(tokens "/);
    expect(termination.reasoning).toContain('"deposit"');
    expect(application.reasoning).toContain('"interview"');
  });

  test("an unrelated document stays other after training: the model weighs in by how much of the text it knows", () => {
    const trained = parseProjectSettings({ ...untrained, classifier_model: trainClassifier(examples) });
    const memo = convertText(
      "ACME Ltd\nMeeting notes\nThe quick brown fox jumps over the lazy dog.\nLunch on Friday at noon.",
      1,
    ).pages;
    const c = classify(memo, trained);
    expect(c.class_id).toBe("other");
    expect(c.reasoning).toContain("no cue of any class found");
  });
});

describe("evidenceFor", () => {
  test("lists only known tokens that favour the class, strongest first", () => {
    const model = trainClassifier(examples);
    const tokens = tokenize("deposit notice interview unknownword notice");
    expect(evidenceFor(model, tokens, "termination_letter")).toEqual(["notice", "deposit"]);
    expect(evidenceFor(model, tokens, "application_letter")).toEqual(["interview"]);
    expect(evidenceFor(model, tokens, "invoice")).toEqual([]);
  });

  test("common function words are no evidence", () => {
    expect(tokenize("I am writing to you as my landlord")).toEqual(["writing", "landlord"]);
  });
});

describe("collectExamples and trainingReport", () => {
  const project = parseProjectSettings({
    ...untrained,
    classes: [
      { id: "application_letter", name: "A", example_documents: [{ text: examples[0]!.text }, { path: "a.pdf" }] },
      { id: "termination_letter", name: "T", example_documents: [{ path: "t.png" }] },
      { id: "other", name: "Other" },
    ],
  });

  test("collects text and path examples in class order with where each came from", async () => {
    const got = await collectExamples(project, async (p) => `text of ${p}`);
    expect(got.map((e) => [e.class_id, e.origin])).toEqual([
      ["application_letter", "text #1"],
      ["application_letter", "a.pdf"],
      ["termination_letter", "t.png"],
    ]);
    expect(got[2]!.text).toBe("text of t.png");
  });

  test("a reader's DocprocError keeps its code (exit 1 for a corrupt file); other failures are invalid_input", async () => {
    const corrupt = collectExamples(project, async () => {
      throw new DocprocError("corrupt_file", "a.pdf: broken xref");
    });
    await expect(corrupt).rejects.toMatchObject({
      code: "corrupt_file",
      message: "example a.pdf of class application_letter could not be read: a.pdf: broken xref",
    });
    await expect(collectExamples(project, async () => Promise.reject(new Error("boom")))).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  test("reports examples, model tokens and leave-one-out hits per class", () => {
    const model = trainClassifier(examples);
    const report = trainingReport(untrained, examples, model);
    expect(report).toEqual([
      { class_id: "application_letter", examples: 5, tokens: model.classes[0]!.token_total, loo_correct: 5 },
      { class_id: "termination_letter", examples: 5, tokens: model.classes[1]!.token_total, loo_correct: 5 },
    ]);
  });

  test("leave-one-out holds each example out of everything, the project's stored model included", () => {
    // A stored model trained on all examples would classify every held-out letter right; a lone example of a
    // class cannot be predicted from the others, and the report must say so.
    const lone = [
      ...examples.filter((e) => e.class_id === "application_letter"),
      examples.find((e) => e.class_id === "termination_letter")!,
    ];
    const leaky = parseProjectSettings({ ...untrained, classifier_model: trainClassifier(lone) });
    const report = trainingReport(leaky, lone, trainClassifier(lone));
    expect(report.find((r) => r.class_id === "termination_letter")).toMatchObject({ examples: 1, loo_correct: 0 });
  });
});

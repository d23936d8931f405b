/**
 * Training from a project's example documents. Text examples are used as they are; path examples are read through
 * the caller's `readExample` (a `docproc train` command converts the file and returns its page text), since core
 * reads no files on its own.
 */
import { DocprocError } from "../../errors";
import type { ProjectSettings } from "../../project";
import { convertText } from "../../convert/supplied";
import { classifyDocument } from "./index";
import { type ClassifierModel, type TrainingExample, trainClassifier } from "../../classify/naive-bayes";

/** One labelled example with where it came from (a path, or `text #n` for inline text), for reports and errors. */
export interface LabelledExample extends TrainingExample {
  origin: string;
}

/**
 * Reads every example of every class, in class order. Page texts of a multi-page example are separated by form
 * feeds (`\f`), as `convertText` expects. MUST fail naming the example when `readExample` fails: a DocprocError
 * keeps its code (a corrupt or missing file is not a usage error), anything else becomes `invalid_input`.
 */
export async function collectExamples(
  project: ProjectSettings,
  readExample: (path: string) => Promise<string>,
): Promise<LabelledExample[]> {
  const examples: LabelledExample[] = [];
  for (const cls of project.classes) {
    for (const [i, ex] of cls.example_documents.entries()) {
      if (ex.text !== undefined) examples.push({ class_id: cls.id, text: ex.text, origin: `text #${i + 1}` });
      if (ex.path === undefined) continue;
      try {
        examples.push({ class_id: cls.id, text: await readExample(ex.path), origin: ex.path });
      } catch (err) {
        const code = err instanceof DocprocError && err.code !== "internal" ? err.code : "invalid_input";
        throw new DocprocError(
          code,
          `example ${ex.path} of class ${cls.id} could not be read: ${(err as Error).message}`,
          { cause: err },
        );
      }
    }
  }
  return examples;
}

/** MUST reject fewer than two classes with examples: a one-class model decides nothing. */
export function trainFromExamples(examples: TrainingExample[]): ClassifierModel {
  const classes = new Set(examples.map((e) => e.class_id));
  if (classes.size < 2) {
    throw new DocprocError(
      "invalid_input",
      `training needs examples of at least two classes (found: ${[...classes].join(", ") || "none"})`,
    );
  }
  return trainClassifier(examples);
}

/**
 * Collects every example of every class and trains a model. MUST fail with `invalid_input` naming the example when
 * `readExample` fails, and when fewer than two classes have examples (a one-class model decides nothing).
 */
export async function trainFromProject(
  project: ProjectSettings,
  readExample: (path: string) => Promise<string>,
): Promise<ClassifierModel> {
  return trainFromExamples(await collectExamples(project, readExample));
}

export interface ClassTrainingReport {
  class_id: string;
  examples: number;
  tokens: number;
  /** Leave-one-out: examples classified right by the full classifier (cues + a model trained without them). */
  loo_correct: number | null;
}

/** Beyond this many examples leave-one-out (one training per example) is skipped: it grows quadratically. */
export const MAX_LEAVE_ONE_OUT = 400;

/**
 * Per-class figures of a training run: examples, tokens in the model and, when cheap, leave-one-out accuracy of
 * `classifyDocument` with the project's cue rules (the way documents will really be classified). An example whose
 * class has no other example cannot be predicted from the rest, but it still counts: the table must not flatter.
 */
export function trainingReport(
  project: ProjectSettings,
  examples: LabelledExample[],
  model: ClassifierModel,
): ClassTrainingReport[] {
  const loo = examples.length <= MAX_LEAVE_ONE_OUT ? leaveOneOut(project, examples) : null;
  const ids = [...new Set(examples.map((e) => e.class_id))];
  return ids.map((class_id) => ({
    class_id,
    examples: examples.filter((e) => e.class_id === class_id).length,
    tokens: model.classes.find((c) => c.class_id === class_id)?.token_total ?? 0,
    loo_correct: loo ? examples.filter((e, i) => e.class_id === class_id && loo[i]).length : null,
  }));
}

function leaveOneOut(project: ProjectSettings, examples: LabelledExample[]): boolean[] {
  // The project's stored model and text examples must not leak the held-out example back in.
  const bare: ProjectSettings = {
    ...project,
    classifier_model: undefined,
    classes: project.classes.map((c) => ({ ...c, example_documents: [] })),
  };
  return examples.map((held, i) => {
    const rest = examples.filter((_, j) => j !== i);
    if (new Set(rest.map((e) => e.class_id)).size < 2) return false;
    const pages = convertText(held.text, 1).pages;
    return classifyDocument(pages, bare, trainClassifier(rest)).class_id === held.class_id;
  });
}

/**
 * Training from a project's example documents. Text examples are used as they are; path examples are read through
 * the caller's `readExample` (a `docproc train` command converts the file and returns its page text), since core
 * reads no files on its own.
 */
import { DocprocError } from "../errors";
import type { ProjectSettings } from "../project";
import { type ClassifierModel, type TrainingExample, trainClassifier } from "./naive-bayes";

/**
 * Collects every example of every class and trains a model. MUST fail with `invalid_input` naming the example when
 * `readExample` fails, and when fewer than two classes have examples (a one-class model decides nothing).
 */
export async function trainFromProject(project: ProjectSettings, readExample: (path: string) => Promise<string>): Promise<ClassifierModel> {
  const examples: TrainingExample[] = [];
  for (const cls of project.classes) {
    for (const ex of cls.example_documents) {
      if (ex.text !== undefined) examples.push({ class_id: cls.id, text: ex.text });
      if (ex.path === undefined) continue;
      try {
        examples.push({ class_id: cls.id, text: await readExample(ex.path) });
      } catch (err) {
        throw new DocprocError("invalid_input", `example ${ex.path} of class ${cls.id} could not be read: ${(err as Error).message}`, { cause: err });
      }
    }
  }
  const classes = new Set(examples.map((e) => e.class_id));
  if (classes.size < 2) {
    throw new DocprocError("invalid_input", `training needs examples of at least two classes (found: ${[...classes].join(", ") || "none"})`);
  }
  return trainClassifier(examples);
}

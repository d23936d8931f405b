/**
 * Multinomial naive Bayes over word tokens, trainable from labelled example documents. The model is plain JSON
 * (it can be stored in the project settings as `classifier_model` or written by `docproc train`).
 */
import { DocprocError } from "../errors";
import { maxOf } from "../arrays";

export interface ClassifierModel {
  kind: "multinomial_nb";
  version: 1;
  vocabulary_size: number;
  classes: Array<{ class_id: string; documents: number; token_total: number; counts: Record<string, number> }>;
}

export interface TrainingExample {
  class_id: string;
  text: string;
}

const TOKEN = /[\p{L}][\p{L}\p{N}'-]{1,30}/gu;
/** Very common words carry no class signal and only add noise to the counts. */
const STOP = new Set(
  [
    "the and for you your with this that from are was our have has not will can all any",
    "an am as at be by do he if in is it me my of on or so to up us we its his her she they them their were been",
    "would could should shall may might must also which who what when where there here than then into about",
    "der die das und mit von für ist ich sie wir ein eine einen dem den des im zu zum zur auf aus bei als auch oder",
    "het een van voor met ik je op te les des une pour avec par est le la du et en un au aux je vous nous il ce qui que",
    "del los las por con el lo se al",
  ]
    .join(" ")
    .split(" "),
);

/** Lower-cased word tokens of a text (letters first, 2..31 characters, stop words dropped). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(TOKEN)) if (!STOP.has(m[0])) out.push(m[0]);
  return out;
}

/** Trains a model; MUST reject an empty example list with `invalid_input` instead of returning a useless model. */
export function trainClassifier(examples: TrainingExample[]): ClassifierModel {
  if (!examples.length) throw new DocprocError("invalid_input", "trainClassifier needs at least one labelled example");
  const byClass = new Map<string, { documents: number; token_total: number; counts: Record<string, number> }>();
  const vocabulary = new Set<string>();
  for (const ex of examples) {
    const entry = byClass.get(ex.class_id) ?? { documents: 0, token_total: 0, counts: {} };
    entry.documents++;
    for (const t of tokenize(ex.text)) {
      entry.counts[t] = (entry.counts[t] ?? 0) + 1;
      entry.token_total++;
      vocabulary.add(t);
    }
    byClass.set(ex.class_id, entry);
  }
  return {
    kind: "multinomial_nb",
    version: 1,
    vocabulary_size: vocabulary.size,
    classes: [...byClass].map(([class_id, e]) => ({ class_id, ...e })),
  };
}

export function isClassifierModel(v: unknown): v is ClassifierModel {
  const m = v as ClassifierModel;
  return !!m && m.kind === "multinomial_nb" && Array.isArray(m.classes) && typeof m.vocabulary_size === "number";
}

export interface Prediction {
  probabilities: Record<string, number>;
  /**
   * Share of the text's tokens the model has seen in training (0..1). A text mostly outside the model's vocabulary
   * gives it little to go on; the classify stage weighs the model down accordingly.
   */
  coverage: number;
  /** Tokens that pushed the best class most, for the reasoning. */
  top_tokens: string[];
}

/**
 * Class probabilities for a text. Log-likelihoods are tempered by document length (naive Bayes is overconfident on
 * long documents), then normalised.
 */
export function predict(model: ClassifierModel, text: string): Prediction {
  const tokens = tokenize(text).slice(0, 2000);
  const totalDocs = model.classes.reduce((s, c) => s + c.documents, 0);
  const V = model.vocabulary_size + 1;
  const known = tokens.filter((t) => model.classes.some((c) => c.counts[t]));
  const scores = model.classes.map((c) => {
    let logLik = 0;
    for (const t of known) logLik += Math.log(((c.counts[t] ?? 0) + 1) / (c.token_total + V));
    return Math.log(c.documents / totalDocs) + logLik / (1 + known.length / 25);
  });
  const max = maxOf(scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  const probabilities: Record<string, number> = {};
  model.classes.forEach((c, i) => (probabilities[c.class_id] = exps[i]! / sum));
  const best = model.classes[scores.indexOf(max)]!;
  const coverage = tokens.length ? known.length / tokens.length : 0;
  return { probabilities, coverage, top_tokens: evidenceFor(model, known, best.class_id) };
}

/**
 * The tokens of a text that speak most for `classId` against the other classes of the model, best first: the
 * statistical evidence a reasoning names. A token's weight is its occurrences × the log ratio of its smoothed
 * probability in the class to its mean in the others; only tokens the model knows and that favour the class count.
 */
export function evidenceFor(model: ClassifierModel, tokens: string[], classId: string, max = 5): string[] {
  const target = model.classes.find((c) => c.class_id === classId);
  if (!target) return [];
  const V = model.vocabulary_size + 1;
  const others = model.classes.filter((c) => c !== target);
  const p = (c: ClassifierModel["classes"][number], t: string) => ((c.counts[t] ?? 0) + 1) / (c.token_total + V);
  const lift = (t: string) =>
    Math.log(p(target, t) / (others.length ? others.reduce((s, c) => s + p(c, t), 0) / others.length : 1 / V));
  const occurrences = new Map<string, number>();
  for (const t of tokens) if (model.classes.some((c) => c.counts[t])) occurrences.set(t, (occurrences.get(t) ?? 0) + 1);
  return [...occurrences]
    .map(([t, n]) => [t, n * lift(t)] as const)
    .filter(([, w]) => w > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([t]) => t);
}

/**
 * Multinomial naive Bayes over word tokens, trainable from labelled example documents. The model is plain JSON
 * (it can be stored in the project settings as `classifier_model` or written by `docproc train`).
 */
import { DocprocError } from "../errors";

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
const STOP = new Set("the and for you your with this that from are was our have has not will can all any der die das und mit von für ist het een van voor met les des une pour avec par est del los las por con".split(" "));

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
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  const probabilities: Record<string, number> = {};
  model.classes.forEach((c, i) => (probabilities[c.class_id] = exps[i]! / sum));
  const best = model.classes[scores.indexOf(max)]!;
  const lift = (t: string) => {
    const p = ((best.counts[t] ?? 0) + 1) / (best.token_total + V);
    const others = model.classes.filter((c) => c !== best);
    const q = others.length ? others.reduce((s, c) => s + ((c.counts[t] ?? 0) + 1) / (c.token_total + V), 0) / others.length : 1 / V;
    return Math.log(p / q);
  };
  const top_tokens = [...new Set(known)].sort((a, b) => lift(b) - lift(a)).slice(0, 5);
  return { probabilities, top_tokens };
}

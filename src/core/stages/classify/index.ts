/**
 * Classification stage: which class of the project a document belongs to. The run's Stage (`classifyStage`) is in
 * stage.ts beside this file; cues and the naive Bayes model are in core/classify/, training beside this file.
 *
 * Contracts:
 * - MUST return one of the project's classes with a confidence 0..1, a reasoning naming the cues (or model
 *   tokens) that decided, and up to three ranked alternatives `{ class_id, type, confidence }`.
 * - Cue rules and structure (classify/structure.ts: till-receipt traits, a totals block with tax, a negative
 *   total) always run; a statistical model runs next to them when one is given, stored in the project
 *   (`classifier_model`, written by `docproc train`), or trainable from the project's example documents that carry
 *   text. The model's share MUST shrink with its token coverage of the document (it has no `other` class), and the
 *   reasoning MUST name the model's probability and the document's tokens that favour the chosen class.
 * - SHOULD answer `other` (when the project has such a class) rather than a weak match: below
 *   `review_thresholds.min_class_confidence` the document becomes `other`.
 * - `review_required` is true below `review_thresholds.classification`; `confirmed` is null (no human yet).
 */
import { PageMemo } from "../../page-memo";
import type { Alternative, Classification, Page } from "../../model";
import type { ProjectSettings } from "../../project";
import { cueTextOf, describeHits, headingZones, scoreClass, type CueScore } from "../../classify/cues";
import { structureBonus, tillTitleBonus } from "../../classify/structure";
import { kindOfTypeCode } from "../../classify/type-codes";
import {
  type ClassifierModel,
  evidenceFor,
  isClassifierModel,
  type Prediction,
  predict,
  tokenize,
  trainClassifier,
} from "../../classify/naive-bayes";
import { timeStageSync } from "../../timing.ts";
import { maxOf } from "../../arrays";

/** Cue scores are turned into probabilities with this temperature (score points per factor e). */
const TEMPERATURE = 2;
/** The score `other` starts with: a document needs real cues to leave it. */
const OTHER_BASE = 4;
/** Share of the statistical model in the combined probability when a model is available. */
const MODEL_WEIGHT = 0.6;
/**
 * Token coverage (share of the text's words the model knows) from which the model gets its full weight. Below it
 * the weight shrinks in proportion: the model has no `other` class, so on a text it knows little of it would
 * otherwise push an unrelated document into one of its classes (the "rather other than a bad match" rule).
 */
const FULL_COVERAGE = 0.4;

const trainedFromExamples = new WeakMap<ProjectSettings, ClassifierModel | null>();

/** The model to use: the argument, the project's stored model, or one trained from its text examples (cached). */
function modelFor(project: ProjectSettings, given?: ClassifierModel): ClassifierModel | null {
  if (given) return given;
  if (isClassifierModel(project.classifier_model)) return project.classifier_model;
  if (!trainedFromExamples.has(project)) {
    const examples = project.classes.flatMap((c) =>
      c.example_documents.filter((e) => e.text).map((e) => ({ class_id: c.id, text: e.text! })),
    );
    const classes = new Set(examples.map((e) => e.class_id));
    trainedFromExamples.set(project, classes.size >= 2 ? trainClassifier(examples) : null);
  }
  return trainedFromExamples.get(project) ?? null;
}

function softmax(scores: number[]): number[] {
  const max = maxOf(scores);
  const exps = scores.map((s) => Math.exp((s - max) / TEMPERATURE));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The statistical evidence for a class: the model's probability and the tokens of the text that favour it most. */
function modelEvidence(model: ClassifierModel, prediction: Prediction, text: string, classId: string): string {
  const tokens = evidenceFor(model, tokenize(text).slice(0, 2000), classId);
  return `classifier model ${round(prediction.probabilities[classId] ?? 0)} for ${classId}${tokens.length ? ` (tokens ${tokens.map((t) => `"${t}"`).join(", ")})` : ""}`;
}

/** What the document's files say about it besides its pages: an embedded or standalone e-invoice's type code. */
export interface ClassifyEvidence {
  /** UN/CEFACT document type code (UNTDID 1001) of the document's e-invoice XML: 380 invoice, 381 credit note… */
  einvoiceTypeCode?: string | null;
}

/**
 * Split classifies every page on its own (the class-change signal); a one-page document is then classified again
 * from the same page, and reading ahead (core/stages/convert/read-ahead.ts) classifies a document of several pages before
 * Classify does. Answers are remembered per run of pages, for the same project and the same page content (text,
 * words, geometry), and handed out as copies. Past CLASSES_RESIDENT runs the older answers wait on disk (PageMemo),
 * so a long file's classes, remembered while it converts, do not add up in memory (~1.5 KB a page).
 */
export const CLASSES_RESIDENT = 1024;
const remembered = new PageMemo<Classification>(CLASSES_RESIDENT);
const copyOf = (c: Classification): Classification => ({ ...c, alternatives: c.alternatives.map((a) => ({ ...a })) });

/** Lets go of the classes remembered for runs of these pages: the stages that ask for them have run. */
export function forgetClassifications(pages: Iterable<Page>): void {
  remembered.forget(pages);
}

/** Classes remembered and not forgotten (tests count them). */
export function rememberedClassifications(): number {
  return remembered.size;
}

/** Classifies a document from its pages; see the module contract. */
export function classifyDocument(
  pages: Page[],
  project: ProjectSettings,
  model?: ClassifierModel,
  evidence: ClassifyEvidence = {},
): Classification {
  const memo = pages.length > 0 && !model && !evidence.einvoiceTypeCode;
  const seen = memo ? remembered.peek(pages, [project]) : undefined;
  if (seen) return copyOf(seen);
  const result = timeStageSync("classify", () => classify(pages, project, model, evidence));
  if (memo) remembered.put(pages, [project], copyOf(result));
  return result;
}

function classify(
  pages: Page[],
  project: ProjectSettings,
  model: ClassifierModel | undefined,
  evidence: ClassifyEvidence,
): Classification {
  const text = pages.map((p) => p.text).join("\n");
  // The heading zone and the title lines of its upper half (titleZone), from one pass over the first page.
  const { heading, titles } = headingZones(pages[0]?.text ?? "");
  const hasOther = project.classes.some((c) => c.id === "other");
  const ocr = pages[0]?.text_source === "ocr";
  const prepared = cueTextOf(text, heading, ocr, titles);
  const cues: CueScore[] = project.classes.map((c) => scoreClass(c, prepared));
  // Structure (till-receipt traits, a totals block with tax) counts next to the cue words.
  const structure = structureBonus(pages);
  const title = tillTitleBonus(structure, cues);
  if (title) structure.push(title);
  for (const cue of cues) for (const b of structure) if (b.class_id === cue.class_id) cue.score += b.points;
  const structureWhy = (classId: string) =>
    structure
      .filter((b) => b.class_id === classId)
      .map((b) => b.why)
      .join("; ");
  const cueProb = softmax(cues.map((c) => c.score + (c.class_id === "other" ? OTHER_BASE : 0)));
  const nb = modelFor(project, model);
  const prediction = nb && text.trim() ? predict(nb, text) : null;
  const weight = prediction ? MODEL_WEIGHT * Math.min(1, prediction.coverage / FULL_COVERAGE) : 0;
  // A model's class the project no longer has keeps its share of the mass unassigned rather than handing it to a
  // remaining class: the probabilities then sum below one and `other` wins more easily, as it should.
  const prob = project.classes.map(
    (c, i) => (1 - weight) * cueProb[i]! + weight * (prediction?.probabilities[c.id] ?? 0),
  );

  const order = project.classes.map((_, i) => i).sort((a, b) => prob[b]! - prob[a]!);
  // An e-invoice's type code states what the document is: it decides, whatever the page's words say (an insurer's
  // invoice speaks of its "Vertrag" and "§ 33 VVG", a credit note's page may print "Rechnung" throughout).
  const stated = classOfTypeCode(evidence.einvoiceTypeCode, project);
  if (stated) return statedClass(project, stated, cues, prob, order);
  let chosen = order[0]!;
  const best = project.classes[chosen]!;
  const thresholds = project.review_thresholds;
  let reasoning: string;
  const cueText = describeHits(cues[chosen]!.hits);
  const statistical = (classId: string) => (nb && prediction ? modelEvidence(nb, prediction, text, classId) : "");
  if (best.id !== "other" && prob[chosen]! < thresholds.min_class_confidence && hasOther) {
    const because = [cueText && `cues ${cueText}`, statistical(best.id)].filter(Boolean).join("; ");
    reasoning = `no class was convincing (best: ${best.id} at ${round(prob[chosen]!)}, below ${thresholds.min_class_confidence}${because ? `; ${because}` : ""}), so other`;
    chosen = project.classes.findIndex((c) => c.id === "other");
  } else if (best.id === "other") {
    const runner = order.find((i) => project.classes[i]!.id !== "other");
    reasoning =
      runner === undefined || !cues[runner]!.hits.length
        ? "no cue of any class found"
        : `cues of ${project.classes[runner]!.id} too weak (${describeHits(cues[runner]!.hits)})`;
    if (runner !== undefined && prediction) reasoning += `; ${statistical(project.classes[runner]!.id)} too weak`;
  } else {
    reasoning = cueText ? `cue words ${cueText}` : "no cue words";
    if (structureWhy(best.id)) reasoning += `; structure: ${structureWhy(best.id)}`;
    if (prediction) reasoning += `; ${statistical(best.id)}`;
  }
  const cls = project.classes[chosen]!;
  const confidence = round(prob[chosen]!);
  const alternatives: Alternative[] = order
    .filter((i) => i !== chosen && prob[i]! >= 0.005)
    .slice(0, 3)
    .map((i) => ({ class_id: project.classes[i]!.id, type: project.classes[i]!.name, confidence: round(prob[i]!) }));
  return {
    class_id: cls.id,
    type: cls.name,
    confidence,
    reasoning,
    alternatives,
    confirmed: null,
    review_required: confidence < thresholds.classification,
  };
}

/**
 * The class an e-invoice's type code names (classify/type-codes.ts): the project's `credit_note` (else its first class
 * with negative amounts) for a credit note, its `invoice` for an invoice; null when the project has no such class.
 */
function classOfTypeCode(
  code: string | null | undefined,
  project: ProjectSettings,
): { index: number; why: string } | null {
  const kind = kindOfTypeCode(code);
  if (!kind) return null;
  const index =
    kind === "credit_note"
      ? ([
          project.classes.findIndex((c) => c.id === "credit_note"),
          project.classes.findIndex((c) => c.amount_sign === "negative"),
        ].find((i) => i >= 0) ?? -1)
      : project.classes.findIndex((c) => c.id === "invoice");
  return index < 0
    ? null
    : { index, why: `e-invoice type code ${code} (${kind === "credit_note" ? "credit note" : "invoice"})` };
}

/** The classification an e-invoice's type code decides: certain (confidence 1), the page's reading as alternatives. */
function statedClass(
  project: ProjectSettings,
  stated: { index: number; why: string },
  cues: CueScore[],
  prob: number[],
  order: number[],
): Classification {
  const cls = project.classes[stated.index]!;
  const pageSaid =
    order[0] === stated.index
      ? ""
      : `; the page's words alone said ${project.classes[order[0]!]!.id} (${describeHits(cues[order[0]!]!.hits)})`;
  return {
    class_id: cls.id,
    type: cls.name,
    confidence: 1,
    reasoning: `${stated.why}: the e-invoice states the document class${pageSaid}`,
    alternatives: order
      .filter((i) => i !== stated.index && prob[i]! >= 0.005)
      .slice(0, 3)
      .map((i) => ({ class_id: project.classes[i]!.id, type: project.classes[i]!.name, confidence: round(prob[i]!) })),
    confirmed: null,
    review_required: false,
  };
}

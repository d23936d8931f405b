/**
 * Project settings: what a project classifies, which fields it extracts, how it splits, validates, reviews,
 * exports and notifies. One zod schema; the embedded default project needs no configuration at all.
 *
 * Contracts:
 * - `parseProjectSettings` MUST report every problem of the input at once (paths included) in one
 *   `DocprocError("invalid_settings")`; it MUST NOT stop at the first one.
 * - Settings given as a file (JSON or YAML) are merged over the default project: top-level keys that the file
 *   omits keep their default value, keys it gives replace the default wholesale (a class list replaces the
 *   default class list; it is not merged class by class, so removing a class is possible).
 * - Cross-references (fields of unknown classes, rules naming unknown fields, duplicate ids, bad regexes) are
 *   checked too and reported together with the schema problems.
 */
import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { DocprocError } from "../errors";
import { SplitSettingsSchema } from "./split";
import { defaultJsonProfile, ExportProfileSchema } from "./exports";
import { DEFAULT_PROJECT_RAW } from "./default";
import { MemorySchema } from "./memory";
import { LANGUAGE_CODE } from "./ocr";
import { schemaProblems } from "../unknown-keys";
import { pushAll } from "../arrays";
import { Id, RegexString } from "./ids";
import { ValidationRuleSchema } from "./rules";
import { WorkflowStepSchema } from "./workflow-steps";

export { type ValidationRule, ValidationRuleSchema } from "./rules";
export { BUILTIN_STEPS, WorkflowStepSchema } from "./workflow-steps";

/** A region of the page as fractions 0..1 of width and height: [x1, y1, x2, y2]. */
const RegionSchema = z
  .tuple([z.number().min(0).max(1), z.number().min(0).max(1), z.number().min(0).max(1), z.number().min(0).max(1)])
  .refine((r) => r[0] < r[2] && r[1] < r[3], "region must be [x1, y1, x2, y2] with x1 < x2 and y1 < y2");

export const ExampleDocumentSchema = z
  .object({
    /** Text of the example (what a page text would look like). */
    text: z.string().optional(),
    /** Path of an example file (used by `docproc train`); relative to the project file. */
    path: z.string().optional(),
  })
  .refine((e) => e.text !== undefined || e.path !== undefined, "an example needs text or path");

export const DocumentClassSchema = z.object({
  id: Id,
  name: z.string().min(1),
  description: z.string().default(""),
  /** Words or phrases (case-insensitive) that suggest the class; a phrase in a page heading counts more. */
  cue_words: z.array(z.string().min(1)).default([]),
  /** Regular expressions (case-insensitive) that suggest the class. */
  cue_patterns: z.array(RegexString).default([]),
  /** Words that argue against the class (e.g. "credit note" for invoice). */
  negative_cue_words: z.array(z.string().min(1)).default([]),
  example_documents: z.array(ExampleDocumentSchema).default([]),
  /** `negative`: amounts of this class are reported below zero (credit notes), whatever sign is printed. */
  amount_sign: z.enum(["as_printed", "negative"]).default("as_printed"),
});

export const FIELD_TYPES = ["string", "number", "amount", "date", "enum", "boolean", "table"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FieldHintsSchema = z.object({
  /** Labels printed next to (left of) or above the value, most specific first; a leading "^" anchors a label at the line start. */
  labels: z.array(z.string().min(1)).default([]),
  /** Regular expressions; the first capture group (or the whole match) is the value. */
  patterns: z.array(RegexString).default([]),
  /** Where on the page the value is expected, as fractions of the page size. */
  expected_region: RegionSchema.optional(),
  /** Words that disqualify a label when printed right before it ("Order" before "Date", "Sub" before "Total"). */
  exclude_before: z.array(z.string().min(1)).default([]),
  /** Words that disqualify a label when printed right after it ("HT" or "net" after "Total"). */
  exclude_after: z.array(z.string().min(1)).default([]),
  /**
   * What the value looks like: `identifier` (one token with a digit), `text` (rest of the line), `party` (a name:
   * labelled, else a line with a company suffix), `address`, or a built-in recogniser that also finds unlabelled
   * values (iban, vat_id, email, phone, currency).
   */
  recognizer: z
    .enum(["identifier", "text", "party", "address", "iban", "vat_id", "email", "phone", "currency"])
    .optional(),
  /** When no label matches, take the first value of the field's type on the first page (dates), at lower confidence. */
  fallback_first: z.boolean().default(false),
});

export const TableColumnSchema = z.object({
  id: Id,
  name: z.string().min(1),
  type: z.enum(["string", "number", "amount", "date"]).default("string"),
  labels: z.array(z.string().min(1)).default([]),
});

export const FieldSchema = z.object({
  id: Id,
  name: z.string().min(1),
  type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
  /** Allowed values for `enum` fields. */
  values: z.array(z.string()).optional(),
  columns: z.array(TableColumnSchema).optional(),
  hints: FieldHintsSchema.prefault({}),
});

export const ReviewThresholdsSchema = z.object({
  /** A classification below this confidence is flagged for review. */
  classification: z.number().min(0).max(1).default(0.6),
  /** A field below this confidence is flagged for review. */
  field: z.number().min(0).max(1).default(0.6),
  /** A split boundary below this confidence is flagged for review. */
  split: z.number().min(0).max(1).default(0.7),
  /** Below this best class score the document becomes `other` rather than a bad match. */
  min_class_confidence: z.number().min(0).max(1).default(0.35),
});

export const ProjectSettingsSchema = z.object({
  /** A project file's own id (the CLI reports it as project_id); stored projects have theirs in the database. */
  id: Id.optional(),
  name: z.string().min(1).default("Default project"),
  /** Locale hint for ambiguous dates and amounts ("en-US" reads 03/04 as March 4; most others as 3 April). */
  locale: z.string().default("auto"),
  classes: z.array(DocumentClassSchema).min(1),
  /** Fields per class id. A class without an entry extracts no fields. */
  fields: z.record(z.string(), z.array(FieldSchema)).default({}),
  split: SplitSettingsSchema.prefault({}),
  validation_rules: z.array(ValidationRuleSchema).default([]),
  review_thresholds: ReviewThresholdsSchema.prefault({}),
  /** Every project has the JSON profile unless its settings say otherwise (an empty list removes it). */
  export_profiles: z.array(ExportProfileSchema).default(() => [defaultJsonProfile]),
  workflow: z.array(WorkflowStepSchema).default([]),
  /**
   * OCR engine: `auto` (native tesseract when present, else embedded), `wasm` (embedded) or `native`. `languages`:
   * tesseract models to read scanned pages with (`eng`, `deu`, `fra`, … or `chi_sim`); one an engine lacks is left
   * out with a warning in the run's result. Absent: each page's language is chosen from its own words
   * (stages/ocr/language-choice.ts).
   */
  ocr: z
    .object({
      engine: z.enum(["auto", "wasm", "native"]).default("auto"),
      languages: z
        .array(z.string().regex(LANGUAGE_CODE, "a tesseract language code such as eng, deu or chi_sim"))
        .min(1)
        .max(8)
        .optional(),
    })
    .prefault({}),
  /** A serialised classifier model (from `trainClassifier`), used next to the cue rules. */
  classifier_model: z.unknown().optional(),
  /** What the project learned from confirmed documents (src/core/memory, docs/memory.md); travels with the settings. */
  memory: z.array(MemorySchema).default([]),
});

export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;
/** What a project file or API body may contain (defaults optional). */
export type ProjectSettingsInput = z.input<typeof ProjectSettingsSchema>;
export type DocumentClass = z.infer<typeof DocumentClassSchema>;
export type FieldSettings = z.infer<typeof FieldSchema>;
export type TableColumn = z.infer<typeof TableColumnSchema>;

const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Record<string, any> =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, any>) : {};

function duplicates(items: any[], path: string, what: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  items.forEach((item, i) => {
    const id = obj(item).id;
    if (typeof id !== "string") return;
    if (seen.has(id)) problems.push(`${path}.${i}.id: duplicate ${what} id "${id}"`);
    seen.add(id);
  });
  return problems;
}

/**
 * Checks that the schema cannot express: ids unique and known. Runs on the raw input (defensively) so that these
 * problems are listed together with the schema problems, not after the user fixed those.
 */
function crossReferenceProblems(raw: unknown): string[] {
  const root = obj(raw);
  const classes = arr(root.classes);
  const problems = duplicates(classes, "classes", "class");
  const classIds = new Set(classes.map((c) => obj(c).id).filter((id) => typeof id === "string"));
  const allFieldIds = new Set<string>();
  for (const [classId, fields] of Object.entries(obj(root.fields))) {
    if (!classIds.has(classId)) problems.push(`fields.${classId}: no class with id "${classId}"`);
    pushAll(problems, duplicates(arr(fields), `fields.${classId}`, "field"));
    arr(fields).forEach((f, i) => {
      const field = obj(f);
      if (typeof field.id === "string") allFieldIds.add(field.id);
      if (field.type === "enum" && !arr(field.values).length)
        problems.push(`fields.${classId}.${i}.values: an enum field needs values`);
      if (field.type === "table" && !arr(field.columns).length)
        problems.push(`fields.${classId}.${i}.columns: a table field needs columns`);
    });
  }
  const rules = arr(root.validation_rules);
  pushAll(problems, duplicates(rules, "validation_rules", "rule"));
  rules.forEach((r, i) => {
    const rule = obj(r);
    const named = [rule.field, ...arr(rule.fields), rule.total, rule.table, rule.before, rule.after].filter(
      (f) => typeof f === "string",
    );
    for (const f of named) if (!allFieldIds.has(f)) problems.push(`validation_rules.${i}: unknown field "${f}"`);
    for (const c of arr(rule.class_ids))
      if (!classIds.has(c)) problems.push(`validation_rules.${i}.class_ids: unknown class "${c}"`);
  });
  pushAll(problems, duplicates(arr(root.export_profiles), "export_profiles", "export profile"));
  pushAll(problems, duplicates(arr(root.workflow), "workflow", "step"));
  return problems;
}

/**
 * Validates raw settings (already merged over the defaults, if wanted) and returns typed settings.
 * MUST throw `DocprocError("invalid_settings")` listing every problem, one per line, with its path. `strict` (files, API
 * bodies; not stored settings of older versions): unknown keys too, with a did-you-mean.
 */
export function parseProjectSettings(raw: unknown, opts: { strict?: boolean } = {}): ProjectSettings {
  const parsed = ProjectSettingsSchema.safeParse(raw);
  const problems = [
    ...schemaProblems(ProjectSettingsSchema, raw, parsed.error, opts.strict),
    ...crossReferenceProblems(raw),
  ];
  if (problems.length > 0 || !parsed.success) {
    throw new DocprocError(
      "invalid_settings",
      `Invalid project settings (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n- ${problems.join("\n- ")}`,
      {
        details: { problems },
      },
    );
  }
  return parsed.data;
}

/** The embedded default project: invoice, credit note, receipt, purchase order, contract, letter, other. */
export const defaultProject: ProjectSettings = parseProjectSettings(DEFAULT_PROJECT_RAW);

/** Merges user settings over the default project at the top level (see the module contract). */
export function mergeOverDefault(raw: unknown): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return raw;
  return { ...(DEFAULT_PROJECT_RAW as Record<string, unknown>), ...(raw as Record<string, unknown>) };
}

/**
 * Loads a project file (`.json`, `.yaml` or `.yml`; else JSON, then YAML), merges it over the default project and
 * validates it strictly. A missing or unparsable file is `invalid_settings` too.
 */
export async function loadProjectFile(path: string): Promise<ProjectSettings> {
  let text: string;
  try {
    // A device or FIFO never ends (or never starts): only a regular file is read.
    if (!(await stat(path)).isFile()) throw new Error("not a regular file");
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new DocprocError("invalid_settings", `Cannot read project file ${path}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  let raw: unknown;
  try {
    // yaml is imported here, not at start-up: most runs use the embedded default project.
    raw = /\.json$/i.test(path) ? JSON.parse(text) : (await import("yaml")).default.parse(text);
  } catch (e) {
    throw new DocprocError(
      "invalid_settings",
      `Project file ${path} is not valid ${/\.json$/i.test(path) ? "JSON" : "YAML"}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new DocprocError("invalid_settings", `Project file ${path} must hold an object of settings`);
  }
  return parseProjectSettings(mergeOverDefault(raw), { strict: true });
}

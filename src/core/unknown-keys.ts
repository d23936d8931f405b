/**
 * Keys a zod schema does not know, at any depth: the typos of a hand-written settings file (`review_threshold:`),
 * which a plain z.object strips without a word. One walk over the value beside its schema, so every schema in
 * src/core stays as it is (stored settings written by older versions still load) while a user's own file or body
 * is checked strictly (project.ts: `parseProjectSettings(raw, { strict: true })`).
 *
 * Contract: returns one "path: unknown key "x"" problem per unknown key, with the closest known key as a
 * did-you-mean when there is one; a value of the wrong type is not this module's business (the schema reports it).
 */
import type { z } from "zod";
import { pushAll } from "./arrays";
import { didYouMean } from "./suggest";

type Def = { type: string; [k: string]: any };
const defOf = (schema: unknown): Def | null => (schema as { _zod?: { def?: Def } })?._zod?.def ?? null;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Every problem of a parse as "path: message": zod's issues, and with `strict` the unknown keys first (zod's own
 * "Unrecognized key" of a strict sub-schema is left out then: the walk reports it, with a guess).
 */
export function schemaProblems(
  schema: z.ZodType,
  value: unknown,
  error: z.ZodError | undefined,
  strict = false,
): string[] {
  const issues = (error?.issues ?? []).filter((i) => !strict || i.code !== "unrecognized_keys");
  const zodProblems = issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
  return strict ? [...unknownKeys(schema, value), ...zodProblems] : zodProblems;
}

/** Every unknown key of `value` under `schema`, as "path: message" lines. */
export function unknownKeys(schema: z.ZodType, value: unknown, path: string[] = []): string[] {
  const def = defOf(schema);
  if (!def || value === undefined || value === null) return [];
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return unknownKeys(def.innerType, value, path);
    case "pipe":
      return unknownKeys(def.in, value, path);
    case "lazy":
      return unknownKeys(def.getter(), value, path);
    case "array":
      return Array.isArray(value) ? value.flatMap((v, i) => unknownKeys(def.element, v, [...path, String(i)])) : [];
    case "tuple":
      return Array.isArray(value)
        ? (def.items as z.ZodType[]).flatMap((s, i) => unknownKeys(s, value[i], [...path, String(i)]))
        : [];
    case "record":
      return isPlainObject(value)
        ? Object.entries(value).flatMap(([k, v]) => unknownKeys(def.valueType, v, [...path, k]))
        : [];
    case "object":
      return objectKeys(def, value, path);
    case "union":
      return unionKeys(def, value, path);
    case "intersection":
      return [...unknownKeys(def.left, value, path), ...unknownKeys(def.right, value, path)];
    default:
      return [];
  }
}

function objectKeys(def: Def, value: unknown, path: string[]): string[] {
  if (!isPlainObject(value)) return [];
  const shape = def.shape as Record<string, z.ZodType>;
  // A catchall (z.looseObject, .catchall()) accepts any key by design.
  const open = def.catchall !== undefined && defOf(def.catchall)?.type !== "never";
  const problems: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key in shape) pushAll(problems, unknownKeys(shape[key], v, [...path, key]));
    else if (!open)
      problems.push(`${[...path, key].join(".")}: unknown key "${key}".${didYouMean(key, Object.keys(shape))}`);
  }
  return problems;
}

/** A discriminated union is checked against the option its discriminator names; any other union against its closest option. */
function unionKeys(def: Def, value: unknown, path: string[]): string[] {
  const options = def.options as z.ZodType[];
  if (def.discriminator && isPlainObject(value)) {
    const tag = value[def.discriminator];
    const chosen = options.find((o) => {
      const field = defOf(o)?.shape?.[def.discriminator];
      const values: unknown[] = field?._zod?.values ? [...field._zod.values] : [];
      return values.includes(tag);
    });
    return chosen ? unknownKeys(chosen, value, path) : [];
  }
  let best: string[] | null = null;
  for (const option of options) {
    const problems = unknownKeys(option, value, path);
    if (best === null || problems.length < best.length) best = problems;
    if (problems.length === 0) break;
  }
  return best ?? [];
}

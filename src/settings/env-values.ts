/**
 * The kinds of value an environment variable holds (env.ts declares each variable with one): every kind trims, reads
 * an empty value as unset, and says in its message what it expected.
 */
import { z } from "zod";
import { parseAllowList } from "../core/notify/ssrf";
import { parseSecretKey } from "../storage/auth/secret-box";
import { parseStorageUrl } from "../storage/files/storage-config";

export const unsetIfEmpty = (v: unknown) =>
  typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v;
export const positive = () =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce.number({ error: "must be a number" }).positive("must be a positive number").optional(),
  );
export const integer = (min: number, max: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: "must be a number" })
      .int("must be an integer")
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .optional(),
  );
export const text = () => z.preprocess(unsetIfEmpty, z.string().optional());
export const httpUrl = () =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "must be an http(s) URL")
      .optional(),
  );
export const postgresUrl = () =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .refine((u) => URL.canParse(u) && /^postgres(ql)?:$/.test(new URL(u).protocol), "must be a postgres:// URL")
      .optional(),
  );
export const cidrList = () =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .superRefine((v, ctx) => {
        try {
          parseAllowList(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message });
        }
      })
      .optional(),
  );

export const storageUrl = () =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .superRefine((v, ctx) => {
        try {
          parseStorageUrl(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message });
        }
      })
      .optional(),
  );
export const bool = () =>
  z.preprocess(unsetIfEmpty, z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).optional());

export const secretKey = () =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .superRefine((v, ctx) => {
        try {
          parseSecretKey(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message.replace(/^DOCPROC_SECRET_KEY /, "") });
        }
      })
      .optional(),
  );

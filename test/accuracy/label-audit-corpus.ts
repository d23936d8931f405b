/**
 * The label-audit corpus of the accuracy gate (fixtures/label-audit): supplied-text invoices of 35 vendors in eight
 * languages whose label words, number shapes and date/amount forms follow invoice2data's templates (MIT) and common
 * small-business layouts, each in four layouts (label: value, aligned, value under label, a header row, dot leaders,
 * meta beside the buyer block). Truth comes from the generator. Supplied text, so the whole corpus reads in seconds.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { labelAuditDocs, VARIANTS } from "../../fixtures/label-audit/render";
import { PROFILES } from "../../fixtures/label-audit/profiles";
import type { Corpus } from "./corpora";

const DOCS = labelAuditDocs();

export const labelAuditCorpus: Corpus = {
  id: "label-audit/text",
  about: `${DOCS.length} supplied-text invoices: ${PROFILES.length} vendors after invoice2data templates and national conventions, 8 languages, ${VARIANTS} layouts each`,
  async build(dir) {
    for (const doc of DOCS) {
      writeFileSync(path.join(dir, `${doc.id}.txt`), doc.text);
      writeFileSync(
        path.join(dir, `${doc.id}.json`),
        JSON.stringify({ class_id: "invoice", fields: doc.truth }, null, 2) + "\n",
      );
    }
  },
};

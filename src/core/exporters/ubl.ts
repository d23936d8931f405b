/**
 * UBL profile: one UBL 2.1 Invoice (or CreditNote, for credit note type codes) per billing document, EN 16931 with
 * the XRechnung or Peppol BIS 3 customisation when the profile asks (options.customization). See einvoice-common.ts
 * for which documents, and what happens when one lacks mandatory data.
 */
import type { ProfileOf } from "../project/exports";
import { documentValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";
import { forEachEInvoice } from "./einvoice-common";

export async function exportUbl(ctx: ExportContext, profile: ProfileOf<"ubl">, out: ExportWriter): Promise<void> {
  await forEachEInvoice(ctx, profile.options, "UBL", out, async (doc, built) => {
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    await out.file(withExtension(name, "xml"), built.xml, [doc.document_id]);
  });
}

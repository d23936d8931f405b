/**
 * CII profile: one UN/CEFACT CII D16B invoice per billing document (Factur-X / ZUGFeRD EN 16931 profile, or
 * XRechnung when options.customization says so). See einvoice-common.ts for which documents, and what happens when
 * one lacks mandatory data.
 */
import type { ProfileOf } from "../project/exports";
import { documentValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";
import { forEachEInvoice } from "./einvoice-common";

export async function exportCii(ctx: ExportContext, profile: ProfileOf<"cii">, out: ExportWriter): Promise<void> {
  const o = profile.options;
  const customization = o.customization === "factur-x" ? "en16931" : o.customization;
  await forEachEInvoice(ctx, { ...o, customization }, "CII", out, async (doc, built) => {
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    await out.file(withExtension(name, "xml"), built.xml, [doc.document_id]);
  });
}

/**
 * Factur-X profile: per billing document, its PDF (the source pages copied, or rendered from the page images for
 * image sources: the pdf profile's builder) made a PDF/A-3b hybrid with the document's CII (EN 16931 profile)
 * attached as factur-x.xml (core/einvoice/facturx-pdf.ts). The attachment is byte for byte what the cii profile
 * with customization factur-x writes for the same document.
 */
import { DocprocError } from "../errors";
import { makeFacturX } from "../einvoice/facturx-pdf";
import type { ProfileOf } from "./profile";
import { documentValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";
import { forEachEInvoice } from "./einvoice-common";
import { buildDocumentPdf, SourcePdfs } from "./pdf";

export async function exportFacturX(
  ctx: ExportContext,
  profile: ProfileOf<"facturx">,
  out: ExportWriter,
  now: Date,
): Promise<void> {
  const sources = new SourcePdfs(ctx.sources);
  await forEachEInvoice(ctx, { ...profile.options, customization: "en16931" }, "CII", out, async (doc, built) => {
    const pdf = await buildDocumentPdf(ctx, doc.split.page_numbers, false, sources, out);
    if (!pdf)
      throw new DocprocError(
        "export_failed",
        `document ${doc.document_index} (${doc.document_id}) has no exportable pages for its Factur-X PDF`,
        { stage: "export" },
      );
    const title =
      `${doc.classification.class_id === "credit_note" ? "Credit note" : "Invoice"} ${built.data.values["BT-1"] ?? ""}`.trim();
    const data = await makeFacturX(pdf, built.xml, { title, now });
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    await out.file(withExtension(name, "pdf"), data, [doc.document_id]);
  });
}

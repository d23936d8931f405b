/**
 * Factur-X profile: per billing document, its PDF (the source pages copied, or rendered from the page images for
 * image sources: the pdf profile's builder) made a PDF/A-3b hybrid with the document's CII (EN 16931 profile)
 * attached as factur-x.xml (core/einvoice/facturx-pdf.ts). The attachment is byte for byte what the cii profile
 * with customization factur-x writes for the same document. The written PDF's PDF/A-3b structure is checked
 * (core/einvoice/pdfa-check.ts); what fails is a warning in the manifest.
 */
import { DocprocError } from "../errors";
import { makeFacturX } from "../einvoice/facturx-pdf";
import { checkPdfA3b } from "../einvoice/pdfa-check";
import type { ProfileOf } from "../project/exports";
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
    // The XML is valid (checked before); the PDF/A-3b structure is checked here, and what fails is said, not hidden:
    // pages copied from a source PDF keep its fonts, embedded or not.
    const failed = (await checkPdfA3b(data)).filter((c) => !c.ok);
    if (failed.length)
      out.warn(
        `document ${doc.document_index} (${doc.document_id}): its Factur-X PDF is not PDF/A-3b conformant: ${failed.map((c) => c.detail).join("; ")}`,
      );
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    await out.file(withExtension(name, "pdf"), data, [doc.document_id]);
  });
}

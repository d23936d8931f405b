/** Shared by the runner's read-ahead tests: one PDF of invoices of one and two pages, and a transaction's meta. */
import { resolve } from "node:path";
import { PDFDocument } from "pdf-lib";

const corpus = resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data");

/** AmazonWebServices (1 page), QualityHosting (2), AzureInterior (1), free_fiber (2): 6 pages, 4 documents. */
export async function joinedInvoices(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const name of ["AmazonWebServices", "QualityHosting", "AzureInterior", "free_fiber"]) {
    const doc = await PDFDocument.load(await Bun.file(`${corpus}/${name}.pdf`).arrayBuffer());
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

export const transactionMeta = () => ({
  transaction_id: crypto.randomUUID(),
  tenant_id: "default",
  project_id: "default",
  project_version: 1,
  correlation_id: null,
  metadata: {},
  created_at: new Date().toISOString(),
  source: "test",
});

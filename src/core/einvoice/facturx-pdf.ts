/**
 * Turns a PDF into a Factur-X / ZUGFeRD 2 hybrid: PDF/A-3b metadata and output intent, the CII invoice attached as
 * `factur-x.xml` with AFRelationship Alternative (listed in the catalog's /AF and the EmbeddedFiles name tree), and
 * the Factur-X XMP extension schema (document type, file name, version, conformance level). PDF/A-3b also wants the
 * page content itself conformant (fonts embedded, no encryption): pages docproc renders from images are; pages copied
 * from a source PDF keep what the source had, except that Helvetica/Arial referenced without a font program get
 * Liberation Sans embedded (pdfa-font-embed.ts).
 */
import { AFRelationship, PDFDocument, PDFHexString, PDFName } from "pdf-lib";
import { createHash } from "node:crypto";
import { srgbIccProfile } from "./icc";
import { embedStandardSansFonts } from "./pdfa-font-embed";

export const FACTURX_FILENAME = "factur-x.xml";
const FX_NS = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function xmp(o: { title: string; producer: string; date: string; conformance: string }): string {
  const field = (name: string, type: string, description: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>${type}</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>application/pdf</dc:format><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${esc(o.title)}</rdf:li></rdf:Alt></dc:title></rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>${esc(o.producer)}</xmp:CreatorTool><xmp:CreateDate>${o.date}</xmp:CreateDate><xmp:ModifyDate>${o.date}</xmp:ModifyDate><xmp:MetadataDate>${o.date}</xmp:MetadataDate></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>${esc(o.producer)}</pdf:Producer></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema><pdfaSchema:namespaceURI>${FX_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
${field("DocumentFileName", "Text", "The name of the embedded XML document")}
${field("DocumentType", "Text", "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER")}
${field("Version", "Text", "The actual version of the standard applying to the embedded XML document")}
${field("ConformanceLevel", "Text", "The conformance level of the embedded XML document")}
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FX_NS}"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>${o.conformance}</fx:ConformanceLevel></rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** XMP wants a time zone; whole seconds keep the Info dictionary's date (also whole seconds) equal to it. */
const xmpDate = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

export interface FacturXOptions {
  title: string;
  now: Date;
  /** Factur-X conformance level of the XML (XMP fx:ConformanceLevel). */
  conformance?: "EN 16931" | "XRECHNUNG";
}

export async function makeFacturX(pdfBytes: Uint8Array, xml: string, o: FacturXOptions): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  // PDF/A wants every font embedded: source pages often reference Helvetica/Arial without embedding them.
  await embedStandardSansFonts(pdf);
  const now = new Date(Math.floor(o.now.getTime() / 1000) * 1000);
  const producer = "docproc";
  pdf.setTitle(o.title);
  pdf.setProducer(producer);
  pdf.setCreator(producer);
  pdf.setCreationDate(now);
  pdf.setModificationDate(now);
  const xmlBytes = new TextEncoder().encode(xml);
  await pdf.attach(xmlBytes, FACTURX_FILENAME, {
    mimeType: "text/xml",
    description: "Factur-X/ZUGFeRD invoice (CII)",
    creationDate: now,
    modificationDate: now,
    afRelationship: AFRelationship.Alternative,
  });
  const ctx = pdf.context;
  const metadata = ctx.stream(
    new TextEncoder().encode(
      xmp({ title: o.title, producer, date: xmpDate(now), conformance: o.conformance ?? "EN 16931" }),
    ),
    { Type: "Metadata", Subtype: "XML" },
  );
  pdf.catalog.set(PDFName.of("Metadata"), ctx.register(metadata));
  const icc = ctx.register(ctx.stream(srgbIccProfile(), { N: 3 }));
  const intent = ctx.obj({
    Type: "OutputIntent",
    S: "GTS_PDFA1",
    OutputConditionIdentifier: PDFHexString.fromText("sRGB"),
    Info: PDFHexString.fromText("sRGB IEC61966-2.1"),
    DestOutputProfile: icc,
  });
  pdf.catalog.set(PDFName.of("OutputIntents"), ctx.obj([ctx.register(intent)]));
  // PDF/A needs a file identifier; derived from the content so the same input gives the same file.
  const id = createHash("md5").update(pdfBytes).update(xmlBytes).update(now.toISOString()).digest("hex");
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(id), PDFHexString.of(id)]);
  // Object streams would hide the XMP and the attachment from simple readers; PDF/A-3 allows both, this is plainer.
  return pdf.save({ useObjectStreams: false });
}

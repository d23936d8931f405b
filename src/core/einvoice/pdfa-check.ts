/**
 * The PDF/A-3b structure of a Factur-X PDF, checked as far as docproc can without veraPDF (which is Java and not to
 * be had here): the requirements of ISO 19005-3 and Factur-X that live in the file's objects. Checked: header with
 * a binary comment, no encryption, a file identifier, the XMP metadata (uncompressed, pdfaid part 3 / conformance
 * B, the Factur-X extension schema and its four properties, Info dictionary equal to XMP), an output intent
 * GTS_PDFA1 with an ICC profile, the embedded factur-x.xml (MIME type, modification date, /F and /UF, an AF
 * relationship, listed in the catalog's /AF), every font embedded (Type 3 excepted), no LZW filter, no DeviceCMYK
 * image against the RGB output intent. Not checked: page content streams (operators, colour operators, transparency
 * groups), font metrics and Unicode maps, annotations and actions: a file passing here can still fail veraPDF.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  PDFHexString,
} from "pdf-lib";
import { fontProblems } from "./pdfa-fonts";
import { pushAll } from "../arrays";

export interface PdfaCheck {
  id: string;
  ok: boolean;
  detail?: string;
}

const text = (o: unknown) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined);

export async function checkPdfA3b(bytes: Uint8Array): Promise<PdfaCheck[]> {
  const out: PdfaCheck[] = [];
  const check = (id: string, ok: boolean, detail?: string) => out.push(ok ? { id, ok } : { id, ok, detail });
  const head = bytes.subarray(0, 32);
  const line2 = head.subarray(head.indexOf(10) + 1);
  check(
    "header",
    /^%PDF-1\.[0-7]/.test(new TextDecoder().decode(head)) &&
      line2[0] === 37 &&
      [1, 2, 3, 4].every((i) => line2[i]! > 127),
    "the file must start with %PDF-1.n and a comment of four bytes above 127",
  );
  const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  const trailer = pdf.context.trailerInfo;
  check("no-encryption", !trailer.Encrypt, "the file is encrypted");
  check("file-id", trailer.ID instanceof PDFArray && trailer.ID.size() === 2, "the trailer has no /ID");

  const meta = pdf.catalog.lookup(PDFName.of("Metadata"));
  const stream = meta instanceof PDFRawStream && !meta.dict.has(PDFName.of("Filter")) ? meta : undefined;
  const xmp = stream ? new TextDecoder().decode(stream.getContents()) : "";
  check("xmp", !!xmp, "no uncompressed XMP metadata stream in the catalog");
  const xmpValue = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xmp)?.[1];
  check(
    "xmp-pdfaid",
    xmpValue("pdfaid:part") === "3" && xmpValue("pdfaid:conformance") === "B",
    "XMP must say pdfaid:part 3, conformance B",
  );
  check(
    "xmp-facturx",
    /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/.test(
      xmp,
    ) &&
      xmpValue("fx:DocumentFileName") === "factur-x.xml" &&
      xmpValue("fx:DocumentType") === "INVOICE" &&
      !!xmpValue("fx:Version") &&
      !!xmpValue("fx:ConformanceLevel"),
    "XMP lacks the Factur-X extension schema or its DocumentFileName/DocumentType/Version/ConformanceLevel",
  );
  const info = trailer.Info instanceof PDFRef ? pdf.context.lookup(trailer.Info, PDFDict) : undefined;
  const title = /<dc:title><rdf:Alt><rdf:li[^>]*>([^<]*)</.exec(xmp)?.[1];
  const producer = xmpValue("pdf:Producer");
  check(
    "info-equals-xmp",
    !info ||
      ((text(info.get(PDFName.of("Title"))) ?? title) === title &&
        (text(info.get(PDFName.of("Producer"))) ?? producer) === producer),
    "the Info dictionary's Title or Producer differs from the XMP",
  );

  const intents = pdf.catalog.lookup(PDFName.of("OutputIntents"));
  const intent = intents instanceof PDFArray && intents.size() ? intents.lookup(0) : undefined;
  check(
    "output-intent",
    intent instanceof PDFDict &&
      intent.get(PDFName.of("S")) === PDFName.of("GTS_PDFA1") &&
      intent.lookup(PDFName.of("DestOutputProfile")) instanceof PDFStream,
    "no GTS_PDFA1 output intent with an ICC profile",
  );
  pushAll(out, attachmentChecks(pdf));
  const fonts = fontProblems(pdf);
  check("fonts-embedded", !fonts.notEmbedded.length, `fonts not embedded: ${fonts.notEmbedded.join(", ")}`);
  check("no-lzw", !fonts.lzw, "a stream uses the LZWDecode filter");
  check("no-cmyk-images", !fonts.cmykImages, "an image is DeviceCMYK while the output intent is RGB");
  return out;
}

function attachmentChecks(pdf: PDFDocument): PdfaCheck[] {
  const af = pdf.catalog.lookup(PDFName.of("AF"));
  const specs = af instanceof PDFArray ? af.asArray().map((r) => pdf.context.lookup(r)) : [];
  const spec = specs.find(
    (s): s is PDFDict => s instanceof PDFDict && text(s.get(PDFName.of("UF"))) === "factur-x.xml",
  );
  const ef = spec?.lookup(PDFName.of("EF"));
  const file = ef instanceof PDFDict ? ef.lookup(PDFName.of("F")) : undefined;
  const params = file instanceof PDFStream ? file.dict.lookup(PDFName.of("Params")) : undefined;
  const names = pdf.catalog.lookup(PDFName.of("Names"));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of("EmbeddedFiles")) : undefined;
  const listed = tree instanceof PDFDict && tree.lookup(PDFName.of("Names")) instanceof PDFArray;
  const relation = spec?.get(PDFName.of("AFRelationship"));
  return [
    { id: "af", ok: !!spec, detail: "the catalog's /AF does not list a file specification for factur-x.xml" },
    {
      id: "af-relationship",
      ok: ["/Alternative", "/Data", "/Source"].includes(String(relation)),
      detail: `AFRelationship is ${String(relation)}`,
    },
    {
      id: "embedded-file",
      ok:
        !!spec?.get(PDFName.of("F")) &&
        file instanceof PDFStream &&
        file.dict.get(PDFName.of("Subtype")) === PDFName.of("text/xml") &&
        params instanceof PDFDict &&
        !!params.get(PDFName.of("ModDate")) &&
        listed,
      detail:
        "factur-x.xml needs /F and /UF, MIME type text/xml, a ModDate, and a place in the EmbeddedFiles name tree",
    },
  ].map((c) => (c.ok ? { id: c.id, ok: true } : c));
}

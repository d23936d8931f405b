/**
 * Intelligent splitting: a stack of real invoices (invoice2data) concatenated into one PDF must come apart at the
 * right pages, and the boundary signals it relies on are checked one by one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";
import type { DocumentSpan } from "../../../src/core/model";
import { boundaryEvidence, boundaryProbability } from "../../../src/core/split/boundary";
import { SplitSettingsSchema } from "../../../src/core/project/split";
import { pageFeatures, parseDocumentNumbers, parseIssuerIds, parsePageCounter } from "../../../src/core/split/signals";
import { splitPages } from "../../../src/core/stages/split";
import { CORPORA, convertFile, type RenderedPdf, textPages } from "./helpers";

/** Invoices in stack order with their page counts: two 2-page invoices, same-vendor neighbours (coolblue). */
const STACK: Array<[string, number]> = [
  ["AmazonWebServices", 1],
  ["QualityHosting", 2],
  ["coolblue1", 1],
  ["coolblue2", 1],
  ["free_fiber", 2],
  ["AzureInterior", 1],
  ["FlipkartInvoice", 1],
  ["NetpresseInvoice", 1],
  ["SammyMaystoneLinesTest", 1],
  ["oyo", 1],
  ["saeco", 1],
];

/** The same invoices in another order, so the boundaries are not tuned to one sequence. */
const SHUFFLED: Array<[string, number]> = [5, 9, 3, 2, 1, 10, 0, 7, 4, 8, 6].map((i) => STACK[i]);

function expectedGroups(stack: Array<[string, number]>): number[][] {
  let next = 1;
  return stack.map(([, n]) => Array.from({ length: n }, () => next++));
}

async function concatenated(stack: Array<[string, number]>): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const [name] of stack) {
    const src = await PDFDocument.load(readFileSync(`${CORPORA}invoice2data/${name}.pdf`));
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

describe("intelligent mode on a stack of invoices in one PDF", () => {
  let pdf: RenderedPdf;
  let spans: DocumentSpan[];
  beforeAll(async () => {
    pdf = await convertFile(await concatenated(STACK), { filename: "stack.pdf", maxSidePx: 900 });
    spans = await splitPages(
      [{ index: 0, filename: "stack.pdf", policy: "inherit", pages: pdf.pages }],
      SplitSettingsSchema.parse({ mode: "intelligent" }),
    );
    for (const s of spans) console.log(JSON.stringify(s.page_numbers), s.confidence, s.reason);
  }, 60_000);
  afterAll(() => pdf?.close());

  test("splits the 13-page stream into the 11 invoices at the right pages", () => {
    expect(pdf.pages.length).toBe(13);
    expect(spans.map((s) => s.page_numbers)).toEqual(expectedGroups(STACK));
  });

  test("splits the same invoices stacked in another order at the right pages", async () => {
    const shuffled = await convertFile(await concatenated(SHUFFLED), { filename: "shuffled.pdf", maxSidePx: 900 });
    try {
      const got = await splitPages(
        [{ index: 0, filename: "shuffled.pdf", policy: "inherit", pages: shuffled.pages }],
        SplitSettingsSchema.parse({ mode: "intelligent" }),
      );
      expect(got.map((s) => s.page_numbers)).toEqual(expectedGroups(SHUFFLED));
    } finally {
      await shuffled.close();
    }
  }, 60_000);

  test("keeps multi-page invoices together because their page counters and invoice numbers continue", () => {
    const quality = spans[1];
    expect(quality.page_numbers).toEqual([2, 3]);
    expect(quality.confidence).toBeGreaterThan(0.8);
    expect(spans[4].page_numbers).toEqual([6, 7]);
  });

  test("separates two invoices of the same vendor by their invoice numbers", () => {
    expect(spans[3].page_numbers).toEqual([5]);
    expect(spans[3].reason).toContain("document number changes");
  });

  test("every document carries a confidence in 0..1 and a reason", () => {
    for (const s of spans) {
      expect(s.confidence).toBeGreaterThan(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      expect(s.reason.length).toBeGreaterThan(5);
      expect(s.policy).toBe("inherit");
    }
  });
});

describe("boundary signals", () => {
  test("reads page counters in several languages and styles", () => {
    expect(parsePageCounter("Total\nPage 1 of 3")).toEqual({ current: 1, total: 3 });
    expect(parsePageCounter("Seite 2 von 2")).toEqual({ current: 2, total: 2 });
    expect(parsePageCounter("Facture n°562044387\nPage 2 / 2")).toEqual({ current: 2, total: 2 });
    expect(parsePageCounter("Page: 1 / 1")).toEqual({ current: 1, total: 1 });
    expect(parsePageCounter("Rechnung Seite 2")).toEqual({ current: 2, total: null });
    expect(parsePageCounter("text\n- 3 -\n")).toEqual({ current: 3, total: null });
    expect(parsePageCounter("Due 12/2024, see pages of the contract")).toBeNull();
    expect(parsePageCounter("Page 3 of 2")).toBeNull();
  });

  test("finds document numbers next to their labels", () => {
    expect(parseDocumentNumbers("Rechnungsnr. 30064443 Kundennr. 47774")).toEqual(["30064443"]);
    expect(parseDocumentNumbers("Factuurnummer: 993548900 IBAN NL50INGB0683251309")).toEqual(["993548900"]);
    expect(parseDocumentNumbers("Facture n°562044387 du 02 Juillet 2015")).toEqual(["562044387"]);
    expect(parseDocumentNumbers("Invoice No : # BLR_WFLD20151000982590")).toEqual(["BLRWFLD20151000982590"]);
    expect(parseDocumentNumbers("Invoice Number: 42183017")).toEqual(["42183017"]);
    expect(parseDocumentNumbers("Rechnungsdatum 7. Mai 2014")).toEqual([]);
  });

  test("identifies issuers by IBAN, VAT ID and domains", () => {
    const ids = parseIssuerIds("IBAN DE30 5075 0094 0000 0485 67\nUStId DE 232 446 240\neMail: info@qualityhosting.de");
    expect(ids).toContain("iban:DE30507500940000048567");
    expect(ids).toContain("vat:DE232446240");
    expect(ids).toContain("domain:qualityhosting.de");
    // An order number shaped like an IBAN fails the checksum.
    expect(parseIssuerIds("Order ID: OD304175096047380001")).toEqual([]);
  });

  test("a domain is its registrable part, also under a second-level suffix; public bodies' sites name no issuer", () => {
    expect(parseIssuerIds("sales@shop.acme.co.uk")).toEqual(["domain:acme.co.uk"]);
    expect(parseIssuerIds("www.widgets.co.uk")).toEqual(["domain:widgets.co.uk"]);
    expect(parseIssuerIds("billing@mail.acme.com")).toEqual(["domain:acme.com"]);
    for (const site of [
      "www.fatturapa.gov.it",
      "www.hmrc.gov.uk",
      "www.impots.gouv.fr",
      "www.bzst.bund.de",
      "www.irs.gov",
    ])
      expect(parseIssuerIds(`Versione prodotta con foglio di stile SdI ${site}`), site).toEqual([]);
  });

  const feature = (text: string, classId: string | null = null) => pageFeatures(textPages([text], 0, 1)[0], classId);
  const noGap = { fileBorder: false, blankBetween: false };

  test("a restarting page counter is strong boundary evidence; a continuing one keeps pages together", () => {
    const p1 = feature("ACME\nPage 1 of 2");
    const p2 = feature("ACME\nPage 2 of 2");
    const q1 = feature("Other Corp\nPage 1 of 1");
    expect(boundaryProbability(boundaryEvidence(p1, p2, noGap))).toBeLessThan(0.1);
    expect(boundaryProbability(boundaryEvidence(p2, q1, noGap))).toBeGreaterThan(0.9);
  });

  test("a changed document number splits, the same number joins", () => {
    const a = feature("Invoice No: A-100\nitems");
    const a2 = feature("Invoice No: A-100\nmore items");
    const b = feature("Invoice No: B-200\nitems");
    expect(boundaryProbability(boundaryEvidence(a, b, noGap))).toBeGreaterThan(0.8);
    expect(boundaryProbability(boundaryEvidence(a, a2, noGap))).toBeLessThan(0.2);
  });

  test("a change of issuer or of document class speaks for a boundary", () => {
    const x = feature("Pay to IBAN DE89 3704 0044 0532 0130 00");
    const y = feature("Pay to IBAN FR14 2004 1010 0505 0001 3M02 606");
    expect(boundaryProbability(boundaryEvidence(x, y, noGap))).toBeGreaterThan(0.5);
    const r = feature("some text", "receipt");
    const c = feature("other text", "contract");
    expect(boundaryProbability(boundaryEvidence(r, c, noGap))).toBeGreaterThan(0.5);
    expect(boundaryProbability(boundaryEvidence(r, feature("more", "receipt"), noGap))).toBeLessThan(0.5);
  });

  test("identifiers of different kinds are no change of issuer (a payment page after the parties' VAT IDs)", () => {
    const parties = feature("Identificativo fiscale ai fini IVA: DE123456789\nCodice fiscale: 12345678901");
    const payment = feature("Dati relativi al pagamento\nCodice IBAN: DE89 3704 0044 0532 0130 00");
    // No VAT ID read out of the IBAN's first characters either.
    expect(payment.issuerIds).toEqual(["iban:DE89370400440532013000"]);
    expect(boundaryEvidence(parties, payment, noGap).map((e) => e.reason)).not.toContain(
      "issuer changes (no shared IBAN, VAT ID or domain)",
    );
  });

  test("a page that opens nothing of its own and repeats the previous page's total continues its document", () => {
    const invoice = feature(
      "Fattura n. 1234567\nIdentificativo fiscale ai fini IVA: DE123456789\nEmail: tim@test.com\nImporto totale documento: 12,829.69\nImponibile 10,781.25",
      "invoice",
    );
    const payment = feature(
      "Dati relativi al pagamento\nImporto: 12829.69\nCodice IBAN: DE89 3704 0044 0532 0130 00\nwww.seller-portal.de",
    );
    const ev = boundaryEvidence(invoice, payment, noGap);
    expect(ev.map((e) => e.reason)).toContain("page repeats the previous page's total (12829.69)");
    expect(boundaryProbability(ev)).toBeLessThan(0.5);
    // The same amount on a page that opens a document of its own (title and number) is another invoice: no such pull.
    const next = feature("Invoice No: INV-2002\nTotal 12,829.69\nwww.other-shop.de", "invoice");
    expect(boundaryEvidence(invoice, next, noGap).map((e) => e.reason)).not.toContain(
      "page repeats the previous page's total (12829.69)",
    );
    expect(boundaryProbability(boundaryEvidence(invoice, next, noGap))).toBeGreaterThan(0.5);
  });

  test("a page without title, number or class leans towards its predecessor, yet another IBAN still cuts", () => {
    const invoice = feature("Invoice No: A-100\nTotal 120.00\nwww.acme.com", "invoice");
    const terms = feature(
      "General terms and conditions\n1. Scope\nThese terms apply to all deliveries.\nwww.other.com",
    );
    const ev = boundaryEvidence(invoice, terms, noGap);
    expect(ev.map((e) => e.reason)).toContain("page opens no document of its own (no title, number or page 1)");
    const x = feature("Pay to IBAN DE89 3704 0044 0532 0130 00", "invoice");
    const y = feature("Pay to IBAN FR14 2004 1010 0505 0001 3M02 606");
    expect(boundaryProbability(boundaryEvidence(x, y, noGap))).toBeGreaterThan(0.5);
  });

  test("without any signal pages stay together, but a new file or a blank page tips towards a boundary", () => {
    const a = feature("plain text");
    const b = feature("more plain text");
    expect(boundaryProbability(boundaryEvidence(a, b, noGap))).toBeLessThan(0.5);
    expect(boundaryProbability(boundaryEvidence(a, b, { fileBorder: true, blankBetween: false }))).toBeGreaterThan(0.5);
    expect(boundaryProbability(boundaryEvidence(a, b, { fileBorder: false, blankBetween: true }))).toBeGreaterThan(0.5);
  });

  test("the classify option feeds the class-change signal", async () => {
    const files = [
      {
        index: 0,
        filename: "f.txt",
        policy: "inherit" as const,
        pages: textPages(["RECEIPT one", "CONTRACT two", "CONTRACT three"], 0, 1),
      },
    ];
    const classify = (pages: { text: string }[]) => ({ class_id: pages[0].text.split(" ")[0].toLowerCase() });
    const settings = SplitSettingsSchema.parse({ mode: "intelligent" });
    expect((await splitPages(files, settings, { classify })).map((s) => s.page_numbers)).toEqual([[1], [2, 3]]);
    expect((await splitPages(files, settings)).map((s) => s.page_numbers)).toEqual([[1, 2, 3]]);
  });
});

/**
 * An e-invoice's type code (UNTDID 1001) decides the class, and its values win over the page: an insurer's invoice
 * (575) whose pages speak of "Vertrag" and "§", a debit note (383), a self-billed invoice (389), credit notes (381,
 * 261, 396); through the real pipeline on PDFs made with pdf-lib, with the CII XML attached. And without any XML:
 * generated invoices that mention their contract terms stay invoices, while contracts that mention invoices and fees
 * stay contracts (the weighting of billing evidence against a few contract words).
 */
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { OcrEngine } from "../../../src/core/engines/ocr";
import { memorySink } from "../../../src/core/exporters";
import type { Page } from "../../../src/core/model";
import { processTransaction } from "../../../src/core/pipeline";
import { defaultProject } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";
import { kindOfTypeCode } from "../../../src/core/classify/type-codes";
import { cii } from "../einvoice/fixtures";

const INSURER_PAGES = [
  [
    "Muster Versicherung AG",
    "Ihr Vertrag: Haftpflichtversicherung",
    "Vertragsnummer HV-123",
    "Versicherungsvertrag nach § 1 VVG",
    "Gemäß § 33 VVG ist der Beitrag sofort fällig.",
    "Vertragsänderungen nach § 8 der Bedingungen.",
    "Laufzeit: 01.01.2024 - 31.12.2024",
    "Kündigung des Vertrages: drei Monate zum Ablauf.",
    "Vertragspartner: Max Muster",
  ],
  [
    "Allgemeine Vertragsbedingungen",
    "§ 1 Vertragsgegenstand",
    "§ 2 Beginn des Versicherungsschutzes",
    "§ 3 Laufzeit und Kündigung",
    "§ 4 Beitrag",
    "Unterschrift",
  ],
];

async function pdfWithXml(pages: string[][], xml: string | null): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((text, i) => page.drawText(text, { x: 50, y: 780 - i * 24, size: 11, font }));
  }
  if (xml)
    await pdf.attach(new TextEncoder().encode(xml), "factur-x.xml", { mimeType: "text/xml", description: "Factur-X" });
  return pdf.save();
}

const noOcr: OcrEngine = {
  name: "none",
  workers: 1,
  recognize: () => Promise.reject(new Error("no OCR expected")),
  close: async () => {},
};
async function run(data: Uint8Array, filename = "insurer.pdf") {
  const meta = {
    transaction_id: crypto.randomUUID(),
    tenant_id: "default",
    project_id: "default",
    project_version: 1,
    correlation_id: null,
    metadata: {},
    created_at: new Date(0).toISOString(),
    source: "test",
  };
  const res = await processTransaction({ sources: [{ index: 0, filename, data, split_policy: "inherit" }] }, {
    meta,
    project: defaultProject,
    ocr: noOcr,
    sink: memorySink(),
  } as never);
  return res.results.documents;
}
const withCode = (code: string) =>
  cii.replace("<ram:TypeCode>380</ram:TypeCode>", `<ram:TypeCode>${code}</ram:TypeCode>`);

describe("an e-invoice's type code decides the class", () => {
  test("UNTDID 1001 codes: invoices (incl. debit, corrected, prepayment, self-billed, insurer's) and credit notes", () => {
    for (const c of ["380", "383", "384", "386", "389", "751", "575", "623"])
      expect([c, kindOfTypeCode(c)]).toEqual([c, "invoice"]);
    for (const c of ["381", "396", "261", "262", "532"]) expect([c, kindOfTypeCode(c)]).toEqual([c, "credit_note"]);
    expect(kindOfTypeCode("999")).toBeNull();
    expect(kindOfTypeCode(null)).toBeNull();
  });

  test("the pages alone read as a contract; with its CII XML (type code 575) the file is one invoice with the XML's values", async () => {
    const bare = await run(await pdfWithXml(INSURER_PAGES, null));
    expect(bare.map((d) => d.classification.class_id)).toContain("contract");
    const docs = await run(await pdfWithXml(INSURER_PAGES, withCode("575")));
    expect(docs).toHaveLength(1);
    const doc = docs[0]!;
    expect(doc.split.page_numbers).toEqual([1, 2]);
    expect(doc.classification).toMatchObject({ class_id: "invoice", confidence: 1, review_required: false });
    expect(doc.classification.reasoning).toContain("e-invoice type code 575 (invoice)");
    expect(doc.classification.reasoning).toContain("the page's words alone said contract");
    for (const [id, v] of Object.entries({
      invoice_number: "RE-4711",
      invoice_date: "2024-03-12",
      vendor_name: "Lieferant GmbH",
      total_amount: 35.7,
      currency: "EUR",
    })) {
      expect([id, doc.fields[id]?.value, doc.fields[id]?.confidence]).toEqual([id, v, 1]);
    }
  });

  for (const [code, cls, sign] of [
    ["383", "invoice", 1],
    ["389", "invoice", 1],
    ["261", "credit_note", -1],
    ["396", "credit_note", -1],
  ] as const) {
    test(`type code ${code} makes the insurer's pages a ${cls}`, async () => {
      const [doc] = await run(await pdfWithXml(INSURER_PAGES, withCode(code)));
      expect(doc!.classification.class_id).toBe(cls);
      expect(doc!.fields.total_amount!.value).toBe(sign * 35.7);
    });
  }

  test("a standalone CII XML with type code 575 is an invoice", async () => {
    const docs = await run(new TextEncoder().encode(withCode("575")), "insurer.xml");
    expect(docs.map((d) => d.classification.class_id)).toEqual(["invoice"]);
    expect(docs[0]!.fields.invoice_number!.value).toBe("RE-4711");
  });
});

function textPage(text: string): Page {
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "t.txt",
    source_file_page_number: 1,
    words: [],
    text,
    ocr_confidence: null,
    text_source: "supplied_text",
    image_transform: {
      rasterized_width: 100,
      rasterized_height: 100,
      source_width: 100,
      source_height: 100,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: null,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
  } as Page;
}

/** Deterministic variety: a seeded choice of vendor, wording, amounts and the contract words mentioned. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

const INVOICE_LANG = {
  en: {
    title: ["Invoice", "INVOICE", "Tax Invoice"],
    no: "Invoice number",
    date: "Invoice date",
    sub: "Subtotal",
    tax: "VAT 20%",
    total: "Total",
    terms: [
      "This invoice is issued under the Master Services Agreement between the parties.",
      "Contract term: 12 months; termination of the contract requires 30 days notice (clause 9 of the agreement).",
      "Governed by the terms and conditions of the subscription agreement, article 4.",
      "Subscription per contract CS-17, renewal and termination per the agreement.",
    ],
  },
  de: {
    title: ["Rechnung", "RECHNUNG", "Abonnementrechnung"],
    no: "Rechnungsnummer",
    date: "Rechnungsdatum",
    sub: "Nettobetrag",
    tax: "USt 19%",
    total: "Gesamtbetrag",
    terms: [
      "Lizenz gemäß Vertrag Nr. V-881, Vertragslaufzeit 12 Monate.",
      "Kündigung gemäß § 5 des Vertrages mit einer Frist von 3 Monaten.",
      "Es gelten die Bedingungen der Rahmenvereinbarung, § 3 und § 7.",
      "Laufzeit des Vertrages: 01.03.2024 - 28.02.2025.",
    ],
  },
  fr: {
    title: ["Facture", "FACTURE"],
    no: "Facture n°",
    date: "Date de facture",
    sub: "Total HT",
    tax: "TVA 20%",
    total: "Total TTC",
    terms: [
      "Abonnement selon le contrat n° C-12, durée 12 mois.",
      "Résiliation du contrat avec un préavis de 30 jours, article 8.",
      "Conditions générales du contrat applicables, article 3.",
    ],
  },
} as const;

function saasInvoice(seed: number): string {
  const r = rng(seed);
  const lang = pick(r, ["en", "de", "fr"] as const);
  const L = INVOICE_LANG[lang];
  const net = 100 + Math.floor(r() * 900);
  const tax = Math.round(net * 0.2 * 100) / 100;
  const fmt = (n: number) => (lang === "en" ? n.toFixed(2) : n.toFixed(2).replace(".", ","));
  const terms = [...L.terms].sort(() => r() - 0.5).slice(0, 2 + Math.floor(r() * 2));
  // The contract's words come early, in what a short document's first lines hold: the description of the service.
  const head = [
    pick(r, ["CloudSuite Ltd", "Softwarehaus AG", "Nuage SAS"]),
    pick(r, L.title),
    `${L.no}: ${1000 + seed}`,
  ];
  const item = `${pick(r, ["Pro plan", "Lizenz", "Abonnement"])} ${fmt(net)}`;
  return [
    ...head,
    ...terms.slice(0, 2),
    item,
    `${L.date}: 05.03.2024`,
    ...terms.slice(2),
    `${L.sub} ${fmt(net)}`,
    `${L.tax} ${fmt(tax)}`,
    `${L.total} ${fmt(net + tax)}`,
  ].join("\n");
}

function contract(seed: number): string {
  const r = rng(seed);
  const de = r() < 0.5;
  return (
    de
      ? [
          "Dienstleistungsvertrag",
          "zwischen der Softwarehaus AG und der Muster GmbH",
          "§ 1 Vertragsgegenstand",
          `§ 2 Vergütung: ${100 + seed},00 EUR netto monatlich zzgl. USt; Rechnung monatlich, zahlbar binnen 14 Tagen`,
          "§ 3 Laufzeit und Kündigung",
          "§ 4 Schlussbestimmungen",
          "Unterschrift Auftraggeber    Unterschrift Auftragnehmer",
        ]
      : [
          "SERVICE AGREEMENT",
          "This agreement is made between the parties CloudSuite Ltd and Example Ltd.",
          "Article 1 Term",
          `Article 2 Fees: ${100 + seed}.00 per month plus VAT, invoiced monthly; each invoice is due within 14 days.`,
          "Article 3 Termination",
          "Article 4 Governing law",
          "Signature ________    Signature ________",
        ]
  ).join("\n");
}

describe("billing evidence against a few contract words (no XML)", () => {
  test("40 generated SaaS invoices in three languages that mention their contract, its term and its § are invoices", () => {
    const wrong = Array.from({ length: 40 }, (_, i) => saasInvoice(i + 1))
      .map((t) => [t, classifyDocument([textPage(t)], defaultProject).class_id] as const)
      .filter(([, c]) => c !== "invoice");
    expect(wrong.map(([t, c]) => `${c}: ${t.split("\n").slice(0, 3).join(" / ")}`)).toEqual([]);
  });

  test("20 generated contracts that mention fees, VAT and invoices stay contracts", () => {
    const wrong = Array.from({ length: 20 }, (_, i) => contract(i + 1))
      .map((t) => [t, classifyDocument([textPage(t)], defaultProject).class_id] as const)
      .filter(([, c]) => c !== "contract");
    expect(wrong).toEqual([]);
  });

  test("an insurer's premium invoice ('Beitragsrechnung', a compound title) is an invoice though it names its Vertrag and § VVG", () => {
    const text = [
      "Muster Versicherung AG",
      "Beitragsrechnung",
      "Ihr Vertrag: Haftpflichtversicherung",
      "Vertragsnummer: HV-123",
      "Gemäß § 33 VVG ist der Beitrag sofort fällig.",
      "Laufzeit des Vertrages: 01.01.2024 - 31.12.2024",
      "Beitrag 400,00",
      "Versicherungsteuer 19% 76,00",
      "Zu zahlender Betrag 476,00 EUR",
      "IBAN DE89370400440532013000",
    ].join("\n");
    const c = classifyDocument([textPage(text)], defaultProject);
    expect(c.class_id).toBe("invoice");
    expect(c.reasoning).toContain("(title)");
  });
});

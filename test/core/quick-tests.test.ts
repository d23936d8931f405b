/**
 * Quick tests that settle most lines before an expensive scan MUST pass every text in which that scan finds
 * something: findCurrencies's mayHoldCurrency (src/core/extract/currencies.ts, before eighteen patterns), the
 * issuer search's DOMAIN_ENDING (src/core/extract/parties.ts, before DOMAIN), the heading zone's mayBeShortHeading
 * (src/core/classify/cues.ts, before the trailing-number pattern) and the date-order scan's NUMERIC_DATE_HINT
 * (normalize.ts), the amount reader's mayHoldGluedCode and GROUPED_AMOUNT (values.ts, before GLUED_CODE and GRAIN_MARKS); and the IBAN / VAT ID readers' `more` (compact-values.ts) MUST hold while longer text can still read a
 * value; the split signals' PAGE_WORD (signals.ts, before the page-counter patterns) and parseAmount's quick path for
 * plain digits (normalize.ts, before parseFormattedAmount's steps) MUST give what the full scans give. Checked on every line of the PDF corpora, the OCR corpus and the varied generator's documents, and on
 * samples in upper, lower and mixed case.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  findCurrencies,
  GLUED_CODE,
  mayHoldCurrency,
  mayHoldGluedCode,
  scanCurrencies,
  SYMBOLS,
} from "../../src/core/extract/currencies";
import { GRAIN_MARKS, GROUPED_AMOUNT } from "../../src/core/extract/values";
import { DOMAIN, DOMAIN_ENDING } from "../../src/core/extract/parties";
import { isShortHeadingLine, mayBeShortHeading } from "../../src/core/classify/cues";
import { convertSource } from "../../src/core/stages/convert";
import { generateSet } from "../../fixtures/varied/generator";

const CORPORA = path.resolve(import.meta.dir, "../../fixtures/corpora");

let loaded: Promise<string[]> | null = null;
const corpusLines = () => (loaded ??= readCorpusLines());

async function readCorpusLines(): Promise<string[]> {
  const lines: string[] = [];
  for (const dir of ["invoice2data", "splitting/paperless-barcodes", "pdf-robustness"].map((d) =>
    path.join(CORPORA, d),
  )) {
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith(".pdf"))
      .sort()) {
      try {
        const converted = await convertSource(
          {
            index: 0,
            filename: name,
            data: new Uint8Array(readFileSync(path.join(dir, name))),
            split_policy: "auto",
          } as never,
          { firstPageNumber: 1, maxPages: 3 } as never,
        );
        for (const page of converted.pages) lines.push(...page.text.split("\n"));
        await converted.close?.();
      } catch {
        // pdf-robustness holds files made to fail
      }
    }
  }
  // The varied generator's documents (seven languages, receipts and tills among them): each printed line.
  for (const doc of generateSet(7)) {
    for (const page of doc.layout.pages) {
      const rows = new Map<number, string[]>();
      for (const run of page) rows.set(run.y, [...(rows.get(run.y) ?? []), run.text]);
      lines.push(...[...rows.values()].map((row) => row.join("  ")));
    }
  }
  const ocr = path.join(CORPORA, "ocr-text/tesseract-test");
  for (const name of readdirSync(ocr).filter((n) => n.endsWith(".txt")))
    lines.push(...readFileSync(path.join(ocr, name), "utf8").split("\n"));
  return lines;
}

const SAMPLES = [
  "US$ 12.00",
  "U.S. dollars",
  "us dollar",
  "CA$5",
  "C$ 3",
  "canadian dollars",
  "AU$ 9",
  "A$9",
  "australian dollar",
  "€ 4,00",
  "12 euros",
  "EURO",
  "£3",
  "pounds sterling",
  "₹ 100",
  "Rs. 1939",
  "Rs.1939",
  "rs 12",
  "rupees",
  "12 zł",
  "12 ZŁ",
  "złotych",
  "¥500",
  "yen",
  "₽ 100",
  "₺ 5",
  "₩ 1000",
  "RM48.40",
  "rm 12",
  "ringgit",
  "S$ 12.00",
  "singapore dollars",
  "HK$ 5",
  "Rp 15.000",
  "rp15.000",
  "rupiah",
  "₱ 20",
  "฿ 30",
  "$",
  "dollars",
  "EUR 12",
  "12 CHF",
  "total (USD)",
  "(Rs.12)",
  "x-RM 4",
];

test("the quick test passes every text in which a currency pattern finds something", async () => {
  const lines = await corpusLines();
  expect(lines.length).toBeGreaterThan(5_000);
  const texts = [...lines, ...SAMPLES.flatMap((s) => [s, s.toUpperCase(), s.toLowerCase(), `Total: ${s} incl.`])];
  let withCurrency = 0;
  let skipped = 0;
  for (const text of texts) {
    const found = scanCurrencies(text);
    if (found.length) {
      withCurrency++;
      expect(mayHoldCurrency(text)).toBe(true);
    } else if (!mayHoldCurrency(text)) skipped++;
    expect(findCurrencies(text)).toEqual(found);
  }
  // Every sample holds a currency, and the quick test does settle many lines on its own.
  for (const s of SAMPLES) expect(scanCurrencies(s).length).toBeGreaterThan(0);
  expect(withCurrency).toBeGreaterThan(200);
  expect(skipped).toBeGreaterThan(lines.length / 4);
}, 60_000);

const AMOUNT_SAMPLES = [
  "3.396,19EUR",
  "EUR12,50",
  "CHF1'234.50",
  "12.50USD",
  "USD 12",
  ".1.344,00",
  "..1.344,00",
  "\u20181.344,00",
  "1,234.56",
  "Total 1.234,56 EUR",
  "12 EURO",
];

test("the amount reader's quick tests pass every text in which a glued code or a grain mark is found", async () => {
  const lines = await corpusLines();
  let glued = 0;
  let grain = 0;
  let skipped = 0;
  for (const text of [...lines, ...AMOUNT_SAMPLES.flatMap((s) => [s, s.toLowerCase(), `Total: ${s} incl.`])]) {
    GLUED_CODE.lastIndex = 0;
    if (GLUED_CODE.test(text)) {
      glued++;
      expect(mayHoldGluedCode(text)).toBe(true);
    } else if (!mayHoldGluedCode(text)) skipped++;
    GRAIN_MARKS.lastIndex = 0;
    if (GRAIN_MARKS.test(text)) {
      grain++;
      expect(GROUPED_AMOUNT.test(text)).toBe(true);
    }
  }
  expect(glued).toBeGreaterThan(5);
  expect(grain).toBeGreaterThan(3);
  expect(skipped).toBeGreaterThan(lines.length / 2);
}, 60_000);

/** scanCurrencies as it was before it skipped symbol patterns by their joined regexes: every pattern, in order. */
function everySymbolScan(text: string): Array<{ start: number; end: number; code: string; explicit: boolean }> {
  // The ISO codes are read as before (that part did not change): the symbols are what is compared.
  const iso = scanCurrencies(text).filter((c) => c.explicit);
  const out: Array<{ start: number; end: number; code: string; explicit: boolean }> = [...iso];
  for (const [re, code] of SYMBOLS)
    for (const m of text.matchAll(new RegExp(re.source, `${re.flags}g`)))
      if (!out.some((o) => m.index! < o.end && m.index! + m[0].length > o.start))
        out.push({ start: m.index!, end: m.index! + m[0].length, code, explicit: false });
  return out.sort((a, b) => a.start - b.start);
}

test("scanCurrencies finds what every symbol pattern run in turn finds", async () => {
  const lines = await corpusLines();
  const texts = [...lines, ...SAMPLES.flatMap((s) => [s, s.toUpperCase(), `Total: ${s} incl. 12,00 € / 14 US$`])];
  for (const text of texts) expect(scanCurrencies(text)).toEqual(everySymbolScan(text));
}, 60_000);

const DOMAIN_SAMPLES = [
  "info@acme.com",
  "www.Example.DE",
  "https://shop.example.co.uk/x",
  "mail: a.b@c-d.io",
  "see aws.amazon.com.",
  "Büro.müller.de",
  "x@y.AU",
];

test("the domain quick test passes every line in which a domain is found", async () => {
  const lines = await corpusLines();
  let withDomain = 0;
  let skipped = 0;
  for (const text of [...lines, ...DOMAIN_SAMPLES.flatMap((s) => [s, s.toUpperCase(), `Web: ${s}; tel 12`])]) {
    const found = [...text.matchAll(DOMAIN)].length;
    if (found) {
      withDomain++;
      expect(DOMAIN_ENDING.test(text)).toBe(true);
    } else if (!DOMAIN_ENDING.test(text)) skipped++;
  }
  for (const s of DOMAIN_SAMPLES) expect([...s.matchAll(DOMAIN)].length).toBeGreaterThan(0);
  expect(withDomain).toBeGreaterThan(30);
  expect(skipped).toBeGreaterThan(lines.length / 2);
}, 60_000);

const HEADING_SAMPLES = [
  "Rechnung Nr. 2024-117",
  "Credit Memo Nr. F2025-780",
  "INVOICE # 12",
  "Invoice no.: A-7",
  "a b c d no. 5",
  "a b c d e no. 5",
  "a b c d e f-no. 5",
  "a b c d e f no.5",
  "one two three four five six 7",
  "Facture n° 12",
  "Factura número 7",
  "x # 5",
  "Beleg nummer 12/3",
];

test("a line the heading quick test turns away is never a short heading", async () => {
  const lines = await corpusLines();
  const texts = [...lines, ...HEADING_SAMPLES.flatMap((s) => [s, s.toUpperCase(), `  ${s}  `, `${s}\t`])];
  let headings = 0;
  let skipped = 0;
  for (const text of texts) {
    if (isShortHeadingLine(text)) {
      headings++;
      expect(mayBeShortHeading(text)).toBe(true);
    } else if (!mayBeShortHeading(text)) skipped++;
  }
  expect(isShortHeadingLine("a b c d e f-no. 5")).toBe(false);
  expect(isShortHeadingLine("Credit Memo Nr. F2025-780")).toBe(true);
  expect(headings).toBeGreaterThan(300);
  expect(skipped).toBeGreaterThan(lines.length / 10);
}, 60_000);

/** One VAT ID of every format VAT_RE knows. */
const VAT_FORMATS = [
  "ATU12345678",
  "BE0123456789",
  "BG123456789",
  "CY12345678X",
  "CZ12345678",
  "DE123456789",
  "DK12345678",
  "EE123456789",
  "EL123456789",
  "GR123456789",
  "ESX1234567X",
  "FI12345678",
  "FRAB123456789",
  "GB123456789",
  "XI123456789",
  "HR12345678901",
  "HU12345678",
  "IE1A23456B",
  "IT12345678901",
  "LT123456789",
  "LU12345678",
  "LV12345678901",
  "MT12345678",
  "NL123456789B01",
  "PL1234567890",
  "PT123456789",
  "RO1234567",
  "SE123456789001",
  "SI12345678",
  "SK1234567890",
  "CHE123456789MWST",
  "NO123456789MVA",
];

/** IBANs and VAT IDs as invoices print them (grouped, dashed, dotted), misread as OCR does, and at their longest. */
const COMPACT_SAMPLES = [
  "IBAN: DE89 3704 0044 0532 0130 00",
  "DE89-3704-0044-0532-0130-00 BIC COBADEFFXXX",
  "GB82 WEST 1234 5698 7654 32",
  "MT84MALT011000012345MTLCAST001S",
  "1T60 X054 2811 1010 0000 0123 456",
  "DEB9 3704 0044 0532 0130 00",
  "0E89 3704 0044 0532 0130 00",
  "LC55 HEMM 0001 0001 0012 0012 0002 3015 -",
  "VAT: DE 123 456 789",
  "USt-IdNr. DE123456789",
  "TVA FR 12 345678901",
  "CHE-123.456.789 MWST",
  "ATU 12345678",
  "NO 123 456 789 MVA",
  "GB 123 4567 89",
  "NL 1234.56.789.B01",
  "EL-123456789",
  "123 DE 456",
  "de123456789",
  "ßS DE89",
  "# DE89 3704 0044 0532 0130 00",
  ...VAT_FORMATS.flatMap((id) => [`VAT ${id}`, `VAT: ${id.replace(/(.{3})(?=.)/g, "$1 ")}`]),
];

test("a compact reader stops (more: false) only where no longer text reads a value", async () => {
  const { ibanRead, vatIdRead } = await import("../../src/core/extract/compact-values");
  const lines = await corpusLines();
  const readers: Array<[string, (raw: string) => { value: string | null; more: boolean }]> = [
    ["iban", (raw) => ibanRead(raw, false)],
    ["iban on OCR text", (raw) => ibanRead(raw, true)],
    ["vat id", vatIdRead],
  ];
  const stopped: Record<string, number> = {};
  const read: Record<string, number> = {};
  for (const text of [...lines, ...COMPACT_SAMPLES]) {
    const words = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
    for (let i = 0; i < words.length; i++) {
      // The texts readCompact hands a reader: words i..j joined as printed, leading separators cut.
      const raws = words.slice(i, i + 10).map((w) => text.slice(words[i]!.start, w.end).replace(/^[\s:#.\-]+/, ""));
      for (const [name, reader] of readers) {
        const results = raws.map(reader);
        const stop = results.findIndex((r) => !r.more);
        if (results.some((r) => r.value)) read[name] = (read[name] ?? 0) + 1;
        if (stop === -1) continue;
        stopped[name] = (stopped[name] ?? 0) + 1;
        for (const later of results.slice(stop + 1)) expect(later.value).toBeNull();
      }
    }
  }
  // The samples read (as printed and repaired) and most tries stop early.
  for (const name of ["iban", "iban on OCR text", "vat id"]) {
    expect(read[name] ?? 0).toBeGreaterThan(5);
    expect(stopped[name] ?? 0).toBeGreaterThan(lines.length);
  }
  expect(ibanRead("1T60 X054 2811 1010 0000 0123 456", true).value).toBe("IT60X0542811101000000123456");
  expect(ibanRead("1T60 X054 2811 1010 0000 0123 456", false)).toEqual({ value: null, more: false });
  // Every format of VAT_RE reads, grouped by threes too.
  for (const id of VAT_FORMATS) {
    expect(vatIdRead(id).value).toBe(id);
    expect(vatIdRead(id.replace(/(.{3})(?=.)/g, "$1 ")).value).toBe(id);
  }
}, 120_000);

const DATE_SAMPLES = [
  "12.03.2024",
  "3/4/24",
  "03-04-2024",
  "1.2.2024",
  "Date: 31/12/2023 Due 15-01-2024",
  "v1.2.3",
  "12.3.24x",
  "2024-03-12",
  "12 March 2024",
  "March 12, 2024",
  "12-Mar-2024",
  "15\nMarch 2024 03/04/2024",
  "5 März\n12/05/2024",
  "1.10.2023",
  "10/1/2023",
];

test("the numeric-date quick test passes every text in which the date scan finds a numeric date", async () => {
  const { findDates, NUMERIC_DATE_HINT } = await import("../../src/core/extract/normalize");
  const lines = await corpusLines();
  // Whole documents too (inferDateOrder scans a document's joined lines): runs of 40 lines.
  const joined = Array.from({ length: Math.ceil(lines.length / 40) }, (_, i) =>
    lines.slice(i * 40, i * 40 + 40).join("\n"),
  );
  let numeric = 0;
  let skipped = 0;
  for (const text of [...lines, ...joined, ...DATE_SAMPLES]) {
    for (const order of ["dmy", "mdy"] as const) {
      if (findDates(text, order).some((d) => d.numeric)) {
        numeric++;
        expect(NUMERIC_DATE_HINT.test(text)).toBe(true);
      } else if (!NUMERIC_DATE_HINT.test(text)) skipped++;
    }
  }
  expect(numeric).toBeGreaterThan(200);
  expect(skipped).toBeGreaterThan(lines.length);
}, 120_000);

test("the page-word quick test passes every line in which a page-counter pattern matches", async () => {
  const { COUNTER_ALONE, COUNTER_OF, PAGE_WORD, parsePageCounter } = await import("../../src/core/split/signals");
  const samples = ["Page 2 of 3", "Seite 1 von 2", "PAGE 2/2", "Pag. 3", "Blatt 4", "ſide 2", "- 3 -", "Strona 1 z 2"];
  let matched = 0;
  for (const line of [...(await corpusLines()), ...samples]) {
    if (!COUNTER_OF.test(line) && !COUNTER_ALONE.test(line)) continue;
    matched++;
    expect(PAGE_WORD.test(line)).toBe(true);
  }
  expect(matched).toBeGreaterThan(20);
  // A text of no page word still reads a dashed page number.
  expect(parsePageCounter("Acme Ltd\n - 3 -\nTotal 12.00")).toEqual({ current: 3, total: null });
  expect(parsePageCounter("Acme Ltd\nTotal 12.00")).toBeNull();
}, 120_000);

test("parseAmount's quick path reads what parseFormattedAmount reads, on every amount the amount pattern finds", async () => {
  const { AMOUNT_RE, parseAmount, parseFormattedAmount } = await import("../../src/core/extract/normalize");
  const samples = ["0", "007", "12", "12.5", "12,50", "4918.84", "1".repeat(400), `${"9".repeat(330)}.5`, "12.", ".5"];
  const amounts = [...samples];
  for (const line of await corpusLines()) for (const m of line.matchAll(AMOUNT_RE)) amounts.push(m[0], m.groups!.body!);
  let plain = 0;
  for (const a of amounts) {
    if (/^\d+(?:[.,]\d{1,2})?$/.test(a)) plain++;
    expect(Object.is(parseAmount(a), parseFormattedAmount(a))).toBe(true);
  }
  expect(plain).toBeGreaterThan(1000);
}, 120_000);

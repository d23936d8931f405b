import { describe, expect, test } from "bun:test";
import {
  findDates,
  inferDateOrder,
  normalizeDate,
  normalizePhone,
  normalizeVatId,
  parseAmount,
} from "../../../src/core/extract/normalize";
import { isValidIban } from "../../../src/core/extract/iban-check";
import { normalizeCurrency } from "../../../src/core/extract/currencies";
import { findAmounts } from "../../../src/core/extract/values";

describe("dates", () => {
  test("reads numeric, ISO and month-name dates in several languages to ISO", () => {
    expect(normalizeDate("2021-01-01")).toBe("2021-01-01");
    expect(normalizeDate("28/11/2022")).toBe("2022-11-28");
    expect(normalizeDate("8-9-2022")).toBe("2022-09-08");
    expect(normalizeDate("01.05.14")).toBe("2014-05-01");
    expect(normalizeDate("August 3 , 2014")).toBe("2014-08-03");
    expect(normalizeDate("Jan 1, 2022")).toBe("2022-01-01");
    expect(normalizeDate("7. Mai 2014")).toBe("2014-05-07");
    expect(normalizeDate("19 april 2014")).toBe("2014-04-19");
    expect(normalizeDate("02 Juillet 2015")).toBe("2015-07-02");
    expect(normalizeDate("3 marca 2021")).toBe("2021-03-03");
    expect(normalizeDate("12 de octubre de 2020")).toBe("2020-10-12");
    expect(normalizeDate("12-Mar-2024")).toBe("2024-03-12");
    expect(normalizeDate("05/Dec/23")).toBe("2023-12-05");
    expect(normalizeDate("2024-03-12T10:00:00Z")).toBe("2024-03-12");
    expect(normalizeDate("1er juillet 2015")).toBe("2015-07-01");
    expect(normalizeDate("12. März 2024")).toBe("2024-03-12");
  });

  test("day/month order follows the locale for ambiguous dates, and a number above 12 overrides it", () => {
    expect(normalizeDate("03/04/2023", "dmy")).toBe("2023-04-03");
    expect(normalizeDate("03/04/2023", "mdy")).toBe("2023-03-04");
    expect(normalizeDate("03/20/2023", "dmy")).toBe("2023-03-20");
    expect(normalizeDate("20/03/2023", "mdy")).toBe("2023-03-20");
  });

  test("the document's unambiguous dates decide the order of its ambiguous ones", () => {
    expect(inferDateOrder(["Invoice 03/20/2023, due 04/04/2023"], "auto", false)).toBe("mdy");
    expect(inferDateOrder(["8-9-2022 and 22-9-2022"], "auto", true)).toBe("dmy");
    expect(inferDateOrder(["01/02/2023"], "en-US", false)).toBe("mdy");
    expect(inferDateOrder(["01/02/2023"], "de-DE", true)).toBe("dmy");
    expect(inferDateOrder(["01/02/2023"], "auto", true)).toBe("mdy");
  });

  test("a numeric date uses one separator twice: an item line's '1-13.20' is no date and casts no order vote", () => {
    expect(findDates("1-13.20", "dmy")).toEqual([]);
    expect(findDates("2 x 1/13.50", "dmy")).toEqual([]);
    expect(normalizeDate("12.03/2024")).toBeNull();
    // Dates on a Malaysian till: the item's "1-13.20" must not make 06/03/2018 read month-first.
    expect(inferDateOrder(["06/03/2018 14:02", "1-13.20", "2-12.40"], "auto", false)).toBe("dmy");
    expect(normalizeDate("06.03.2018")).toBe("2018-03-06");
    expect(normalizeDate("6-3-18")).toBe("2018-03-06");
  });

  test("rejects impossible calendar dates", () => {
    expect(normalizeDate("31/02/2023")).toBeNull();
    expect(findDates("99/99/2023", "dmy").every((d) => d.iso === null)).toBe(true);
  });
});

describe("amounts", () => {
  test("parses European, US, spaced and Swiss groupings", () => {
    expect(parseAmount("1.234,56")).toBe(1234.56);
    expect(parseAmount("1,234.56")).toBe(1234.56);
    expect(parseAmount("1 234,56")).toBe(1234.56);
    expect(parseAmount("1'234.50")).toBe(1234.5);
    expect(parseAmount("4904,94")).toBe(4904.94);
    expect(parseAmount("€ 717,97")).toBe(717.97);
    expect(parseAmount("$4.11")).toBe(4.11);
    expect(parseAmount("1,234")).toBe(1234);
    expect(parseAmount("1939")).toBe(1939);
  });

  test("reads signs: leading minus, trailing minus, parentheses", () => {
    expect(parseAmount("-9,32")).toBe(-9.32);
    expect(parseAmount("9,32-")).toBe(-9.32);
    expect(parseAmount("(12.00)")).toBe(-12);
  });

  test("rejects text that is no amount", () => {
    expect(parseAmount("12.34.56,7,8")).toBeNull();
    expect(parseAmount("abc")).toBeNull();
  });

  test("finds amounts in a line, skipping dates and percentages, with the adjacent currency", () => {
    const found = findAmounts("Tax 15% on $ 112.90 $ 16.94 due 03/04/2023");
    expect(found.map((a) => a.value)).toEqual([112.9, 16.94]);
    expect(found[1]!.currency).toBe("USD");
    expect(findAmounts("Totaal € 717,97")[0]).toMatchObject({ value: 717.97, currency: "EUR", decimals: true });
    expect(findAmounts("Grand Total Rs 1939")[0]).toMatchObject({ value: 1939, currency: "INR", decimals: false });
  });
});

describe("currency", () => {
  test("maps symbols, names and codes to ISO 4217", () => {
    expect(normalizeCurrency("€")).toBe("EUR");
    expect(normalizeCurrency("$")).toBe("USD");
    expect(normalizeCurrency("US$")).toBe("USD");
    expect(normalizeCurrency("CA$")).toBe("CAD");
    expect(normalizeCurrency("£")).toBe("GBP");
    expect(normalizeCurrency("Rs.")).toBe("INR");
    expect(normalizeCurrency("₹")).toBe("INR");
    expect(normalizeCurrency("zł")).toBe("PLN");
    expect(normalizeCurrency("CHF")).toBe("CHF");
    expect(normalizeCurrency("euros")).toBe("EUR");
    expect(normalizeCurrency("hello")).toBeNull();
  });
});

describe("IBAN", () => {
  test("accepts valid IBANs with or without spaces and rejects a wrong checksum or length", () => {
    expect(isValidIban("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(isValidIban("NL50INGB0683251309")).toBe(true);
    expect(isValidIban("FR76 1010 7002 4500 6170 5231 739")).toBe(true);
    expect(isValidIban("DE89 3704 0044 0532 0130 01")).toBe(false);
    expect(isValidIban("DE89 3704 0044 0532 0130")).toBe(false);
    expect(isValidIban("US1234567890")).toBe(false);
  });
});

describe("VAT IDs and contact details", () => {
  test("compacts VAT IDs of known formats and rejects others", () => {
    expect(normalizeVatId("DE 232 446 240")).toBe("DE232446240");
    expect(normalizeVatId("NL810433941B01")).toBe("NL810433941B01");
    expect(normalizeVatId("FR 604 219 388 61")).toBe("FR60421938861");
    expect(normalizeVatId("ATU12345678")).toBe("ATU12345678");
    expect(normalizeVatId("DE 123")).toBeNull();
    expect(normalizeVatId("NL00333599698")).toBeNull();
  });

  test("normalises phone numbers to digits with a leading + for international ones", () => {
    expect(normalizePhone("+49 6051 916 44 10")).toBe("+496051916441" + "0");
    expect(normalizePhone("0049 30 1234567")).toBe("+49301234567");
    expect(normalizePhone("020 7604101")).toBe("0207604101");
    expect(normalizePhone("12 34")).toBeNull();
  });
});

/**
 * The failure classes the label-audit corpus (fixtures/label-audit) found on other vendors' invoices, each as a
 * general mechanism, through the real supplied-text pipeline (convert, classify, extract). Texts written for these
 * tests after the layouts of invoice2data's templates (SOURCE.md there names them); each case fails without its fix.
 */
import { describe, expect, test } from "bun:test";
import { convertText } from "../../../src/core/stages/convert";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";
import { defaultProject } from "../../../src/core/project";
import { findAmounts } from "../../../src/core/extract/values";

function read(text: string) {
  const { pages } = convertText(text, 1);
  const classification = classifyDocument(pages, defaultProject);
  const fields = extractFields(pages, "invoice", defaultProject);
  return {
    class_id: classification.class_id,
    values: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.value])),
  };
}

const items = `Désignation                                 Qté     P.U. HT         Montant HT
Service A BR-480                            1       3.203,95        3.203,95`;

describe("amounts with an ISO code glued to them", () => {
  test("3.396,19EUR and EUR12,50 are amounts with their currency", () => {
    expect(findAmounts("NET A PAYER 3.396,19EUR").map((a) => [a.value, a.currency])).toEqual([[3396.19, "EUR"]]);
    expect(findAmounts("Total EUR12,50").map((a) => [a.value, a.currency])).toEqual([[12.5, "EUR"]]);
    // A code inside a word is a word: nothing is read from "REFEUR12".
    expect(findAmounts("REFEUR12")).toEqual([]);
  });

  test("a Belgian butcher's totals: HTVA, TVA and NET A PAYER with EUR glued on", () => {
    const { values } = read(`Boucherie Lambotte SPRL                                     FACTURE
Rue de Namur 41, 5000 Namur

FACTURE N° 41494 du 03/04/2024

${items}
                     Total HTVA                           3.203,95EUR
                     TVA 6%                                 192,24EUR
                     NET A PAYER                          3.396,19EUR
`);
    expect(values).toMatchObject({ total_amount: 3396.19, subtotal_amount: 3203.95, tax_amount: 192.24 });
    expect(values.invoice_number).toBe("41494");
  });
});

describe("document numbers", () => {
  test("read across dot leaders", () => {
    const { values } = read(`Tischlerei Huber e.U.
Rechnungs-Nr. ................................ 2018-6504
Rechnungsdatum ............................... 12.03.2018
Gesamtbetrag ................................. € 1.200,00
`);
    expect(values.invoice_number).toBe("2018-6504");
  });

  test("a capital prefix printed apart from its number, and digit groups with a check digit", () => {
    expect(
      read(`Southern Cross Telco Pty Ltd\nBill number                   Z 188 337 970-8\nTotal   $120.00\n`).values
        .invoice_number,
    ).toBe("Z 188 337 970-8");
    expect(
      read(`Hurtownia Mazur Sp. z o.o.\nFaktura VAT                   FS 469/2022\nRazem do zapłaty: 123,00 PLN\n`)
        .values.invoice_number,
    ).toBe("FS 469/2022");
  });

  test("Dutch, French and Dolibarr labels; a reference of the client or order is not the number", () => {
    expect(
      read("Groenhart Tuinen B.V.\nFactuur nummer                TG137137\nTotaal   12,00\n").values.invoice_number,
    ).toBe("TG137137");
    expect(
      read("Colis Express\nVotre facture N° HD87644372 du 18/02/2025\nTotal 12,00 €\n").values.invoice_number,
    ).toBe("HD87644372");
    const dolibarr = read(
      "CAP-ATELIER SARL\nRéf. client : CU2004-0012\nRéf. : FA1905-1436\nDate facturation : 03/05/2019\nTotal TTC 120,00 €\n",
    );
    expect(dolibarr.values.invoice_number).toBe("FA1905-1436");
  });
});

describe("document numbers shaped like dates", () => {
  test("after a label that says number, 1/06/2025 or FV 12/06/2025 is the number (beside or below it)", () => {
    const beside = (v: string) => read(`Drukarnia Orzeł Sp. z o.o.\nNumer faktury: ${v}\nRazem 12,00 PLN\n`).values;
    expect(beside("90/06/2025").invoice_number).toBe("90/06/2025");
    expect(beside("FV 12/06/2025").invoice_number).toBe("FV 12/06/2025");
    const below = read(
      "Drukarnia Orzeł Sp. z o.o.\nNumer Faktury:\n1/06/2025\n\nData wystawienia:\n17.06.2025\nRazem 12,00 PLN\n",
    );
    expect(below.values).toMatchObject({ invoice_number: "1/06/2025", invoice_date: "2025-06-17" });
  });
  test("after a bare title word it stays the date", () => {
    const { values } = read("Muster GmbH\nRechnung 12.06.2025\nGesamtbetrag 12,00 €\n");
    expect(values).toMatchObject({ invoice_number: null, invoice_date: "2025-06-12" });
  });
  test("NR: opening a line under a Polish title", () => {
    const { values } = read(
      "PayNova Spółka Akcyjna                    FAKTURA VAT\nNR: FV/2022/04/7328\nDo zapłaty: 12.00 PLN\n",
    );
    expect(values.invoice_number).toBe("FV/2022/04/7328");
  });
});

describe("subtotal and total labels", () => {
  test("Total brut facture and Montant à payer en Euros with dot leaders", () => {
    const { values } = read(`Colis Express Services
Facture N° 1234567 du 18/02/2025
${items}
Total brut facture ........................................... 3203,95
TVA à 20% ..................................................... 640,79
Montant à payer en Euros ..................................... 3844,74
`);
    expect(values).toMatchObject({ total_amount: 3844.74, subtotal_amount: 3203.95, tax_amount: 640.79 });
  });
});

describe("identifiers", () => {
  test("an IBAN's first groups are not read as a VAT ID (PL + ten digits)", () => {
    const { values } = read(`Hurtownia Mazur Sp. z o.o.
Faktura VAT FS 12/2024
Razem do zapłaty:                   2 372,55 PLN
Nr konta: PL58 8417 9332 1553 5479 8383 4189
`);
    expect(values.vendor_vat_id).toBeNull();
    expect(values.iban).toBe("PL58841793321553547983834189");
  });

  test("a bank account that is no IBAN is read right of its label; a customer account number is not", () => {
    const text = (label: string) =>
      `Azure Interior\nInvoice INV/2023/03/0008\nTotal $ 279.84\n${label}: US1234567890\n`;
    expect(read(text("Bank Account")).values.iban).toBe("US1234567890");
    expect(read(text("Customer account")).values.iban).toBeNull();
    expect(read(text("IBAN")).values.iban).toBeNull();
  });
});

describe("the dollar of the issuing country", () => {
  const bill = (head: string, sign = "$") => `${head}
Tax Invoice - issued 12 Mar 2022
Bill number   Z 188 337 970-8
Total                                  ${sign}1,341.56
`;
  test("an ABN or an Australian address makes $ the Australian dollar", () => {
    expect(read(bill("Southern Cross Telco Pty Ltd\nABN 33 051 775 556")).values.currency).toBe("AUD");
    expect(read(bill("Southern Cross Telco Pty Ltd\n242 Exhibition Street\nMelbourne VIC 3000")).values.currency).toBe(
      "AUD",
    );
  });
  test("without such a cue, or with US dollars written out, $ stays USD", () => {
    expect(read(bill("Brightline Studio LLC\n441 Logue Ave\nMountain View, CA 94043")).values.currency).toBe("USD");
    expect(read(bill("Southern Cross Telco Pty Ltd\nABN 33 051 775 556\nAll amounts in USD")).values.currency).toBe(
      "USD",
    );
  });
});

test("a Belgian décompte with HTVA totals is an invoice", () => {
  const { class_id } = read(`Onde Belge SA                                                   DÉCOMPTE
Boulevard du Roi Albert II 27, 1030 Bruxelles
NUMÉRO DE DOCUMENT            27R-8562873
DATE                          07/04/2025
Description                                 Qté     Prix            Montant
Module D KZ-872                             1       282,76          282,76
                    Total HTVA                             € 282,76
                    TVA 21% sur                             € 59,38
                    Montant total à payer                  € 342,14
Compte IBAN BE97328690281784
`);
  expect(class_id).toBe("invoice");
});

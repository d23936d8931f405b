/**
 * A label inside an e-mail address that OCR read with a space beside its "@" ("seller @email.de", "seller@ email.de")
 * is no label: generated French factures whose seller is named in the remittance slip and whose contact line prints
 * a mailbox named like a label; as OCR lines. The facture scans gave "email.de" as the vendor.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { inAddressToken } from "../../../src/core/extract/word-bounds";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

const SELLERS = ["Zimmermann Gebäudereinigung AG", "Hoffmann Haustechnik GmbH", "Lorenz Metallbau KG"];
const MAILBOXES = ["seller", "vendor", "supplier", "verkäufer"];
const DOMAINS = ["email.de", "post.de", "example.com"];

function facture(seed: number, split: string) {
  const r = new Rng(seed);
  const [seller, box, domain] = [r.pick(SELLERS), r.pick(MAILBOXES), r.pick(DOMAINS)];
  const rows: Array<[number, Cell[]]> = [
    [80, [["FACTURE", 100, 36]]],
    [160, [["Facture n° 123456XX", 100]]],
    [200, [["Facturé à", 100]]],
    [230, [["Landesamt für Statistik Heilbronn", 100]]],
    [260, [["Schillerstraße 73", 100]]],
    [400, [["Total TTC 336,90 €", 1200]]],
    [900, [[`Bénéficiaire : ${seller}`, 100]]],
    [930, [["IBAN : DE79 0000 0000 1234 5678 90", 100]]],
    [1000, [[seller, 1200]]],
    [1030, [["Hauptstraße 94", 1200]]],
    [1060, [[`${box}${split}${domain}`, 1200]]],
  ];
  return { fields: extractFields([page(rows, true)], "invoice", defaultProject), seller };
}

describe("a mailbox named like a label, its '@' read with a space beside it", () => {
  for (const split of ["@", " @", "@ "])
    test(`"seller${split}email.de"`, () => {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const { fields, seller } = facture(seed, split);
        expect([seed, fields.vendor_name?.value]).toEqual([seed, seller]);
      }
    });

  test("the token beside the label starting or ending with '@' makes it part of an address", () => {
    expect(inAddressToken("seller @email.de", 0, 6)).toBe(true);
    expect(inAddressToken("info seller@ email.de", 5, 11)).toBe(true);
    expect(inAddressToken("seller: Acme GmbH", 0, 6)).toBe(false);
    expect(inAddressToken("Seller Acme @ home", 0, 6)).toBe(false);
  });
});

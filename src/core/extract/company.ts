/**
 * Company names recognised by their legal form ("Norvel Logistics GmbH & Co. KG", "ACME LTD"). The longest form
 * is listed first, so "GmbH & Co. KG" wins over "GmbH". Forms are matched case-sensitively, except on lines
 * printed in capitals (till receipts, letterheads), where "LTD" and "S.R.L." count too.
 */
const FORMS = [
  "GmbH\\s?&\\s?Co\\.?\\s?KG(?:aA)?", "gGmbH", "GmbH", "AG", "KGaA", "KG", "OHG", "GbR", "UG", "e\\.\\s?K\\.", "e\\.\\s?V\\.", "SE",
  "B\\.\\s?V\\.", "BV", "N\\.\\s?V\\.", "NV", "Pvt\\.?\\s?Ltd\\.?", "Pty\\.?\\s?Ltd\\.?", "Ltd\\.?", "Limited", "LLP", "Inc\\.?", "LLC", "L\\.L\\.C\\.",
  "S\\.A\\.R\\.L\\.", "S\\.A\\.S\\.", "S\\.\\s?A\\.", "SAS", "SARL", "Sàrl", "S\\.à\\s?r\\.l\\.", "SA", "S\\.r\\.l\\.", "SRL", "Srl", "S\\.p\\.A\\.", "SpA",
  "S\\.L\\.U\\.", "S\\.L\\.", "SLU", "plc", "PLC", "Corp\\.?", "Corporation", "Oy", "AB", "A\\/S", "ApS", "sp\\. z o\\.o\\.", "spółka akcyjna",
];
// A form ending in a dot has no word boundary after it; the others must not run into a following letter.
const SOURCE = `(?<![\\p{L}])(${FORMS.join("|")})(?![\\p{L}])`;
const CASED = new RegExp(SOURCE, "u");
const CAPS = new RegExp(SOURCE, "iu");

/** The legal form in `text`, or null. */
export function legalForm(text: string): RegExpExecArray | null {
  return (/\p{Ll}/u.test(text) ? CASED : CAPS).exec(text);
}

/**
 * Company names recognised by their legal form ("Norvel Logistics GmbH & Co. KG", "ACME LTD"). The longest form
 * is listed first, so "GmbH & Co. KG" wins over "GmbH". Forms are matched case-sensitively, except on lines
 * printed in capitals (till receipts, letterheads), where "LTD" and "S.R.L." count too.
 */
const FORMS = [
  "GmbH\\s?&\\s?Co\\.?\\s?KG(?:aA)?",
  "Sdn\\.?\\s?Bhd\\.?",
  "Bhd\\.?",
  "S\\/B",
  "Pte\\.?\\s?Ltd\\.?",
  "Co\\.,?\\s?Ltd\\.?",
  "gGmbH",
  "GmbH",
  "AG",
  "KGaA",
  "KG",
  "OHG",
  "GbR",
  // The German mini-GmbH must print its form in full; OCR may lose or misread the umlaut ("beschrénkt").
  "UG\\s?\\(haftungsbeschr(?:ä|a|ae|[^\\s)]{1,2})nkt\\)",
  "UG",
  "e\\.\\s?K\\.",
  "e\\.\\s?V\\.",
  "SE",
  "B\\.\\s?V\\.",
  "BV",
  "N\\.\\s?V\\.",
  "NV",
  "Pvt\\.?\\s?Ltd\\.?",
  "Pty\\.?\\s?Ltd\\.?",
  "Ltd\\.?",
  "Limited",
  "LLP",
  "Inc\\.?",
  "LLC",
  "L\\.L\\.C\\.",
  "S\\.A\\.R\\.L\\.",
  "S\\.A\\.S\\.",
  "S\\.\\s?A\\.",
  "SAS",
  "SARL",
  "Sarl",
  "Sàrl",
  "S\\.à\\s?r\\.l\\.",
  "SA",
  "S\\.r\\.l\\.",
  "SRL",
  "Srl",
  "S\\.p\\.A\\.",
  "SpA",
  "S\\.L\\.U\\.",
  "S\\.L\\.",
  "SL",
  "SLU",
  "plc",
  "PLC",
  "Corp\\.?",
  "Corporation",
  "Oy",
  "AB",
  "A\\/S",
  "ApS",
  "sp\\. z o\\.o\\.",
  "spółka akcyjna",
];
// A form ending in a dot has no word boundary after it; the others must not run into a following letter.
const SOURCE = `(?<![\\p{L}])(${FORMS.join("|")})(?![\\p{L}])`;
const CASED = new RegExp(SOURCE, "gu");
const CAPS = new RegExp(SOURCE, "giu");
/** A legal form standing alone: the tail of a name whose first words a label took ("Test Seller Inc."), no name. */
const BARE = new RegExp(`^\\s*(${FORMS.join("|")})[\\s.,]*$`, "iu");
export const bareLegalForm = (text: string) => BARE.test(text);

/**
 * The legal form in `text`, or null. Only a whole token after a name counts: "(Inc. GST)" or "Sarl au capital" at
 * the start of a line names no company.
 */
export function legalForm(text: string): RegExpExecArray | null {
  // exec on the module's regex, not matchAll (a regex clone per call: every line of a first page is asked).
  const re = /\p{Ll}/u.test(text) ? CASED : CAPS;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (/[\p{L}\p{N}&'’.)]\s*,?\s+$|[\p{L}\p{N}]-$/u.test(text.slice(0, m.index))) return m;
  }
  return null;
}

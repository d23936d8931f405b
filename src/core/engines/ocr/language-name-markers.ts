/**
 * Evidence of the language the parties' names are written in, for language-guess.ts: kept apart from the page's
 * language markers (language-markers.ts) because an invoice in English or French between German companies prints
 * its labels in one language and its names, streets and cities in another.
 */
/**
 * Tesseract model → words of company names and addresses (legal forms, street words, whole or as the end of a
 * compound: "Goethestrasse"; lower case, no diacritics, as language-guess.ts compares words) of the countries that
 * write that language: evidence of the language the parties' names are written in, which an invoice in English or
 * French between German companies does not share with its labels.
 */
export const NAME_MARKERS: Record<string, RegExp> = {
  deu: /^(gmbh|ug|kg|ohg|gbr|e\.k|haftungsbeschrankt|\p{L}*(strasse|str|allee|gasse|platz))$/u,
  fra: /^(sarl|sas|eurl|rue|avenue|boulevard|cedex|chemin|impasse)$/u,
  spa: /^(calle|avenida|s\.l|slu|plaza|paseo)$/u,
  ita: /^(srl|s\.r\.l|s\.p\.a|piazza|viale|corso)$/u,
  nld: /^(b\.v|bv|\p{L}*(straat|laan|plein|gracht))$/u,
  por: /^(rua|lda|ltda|travessa)$/u,
};

/**
 * Country prefixes of VAT IDs and IBANs (as OCR reads them: spaces allowed between the IBAN's groups) → the model of
 * that country's language. A party's registration is strong evidence of where its name comes from.
 */
export const COUNTRY_IDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<![A-Z\d])(?:DE\s?\d{9}|AT\s?U\d{8}|(?:DE|AT)\d{2}(?:\s?\d{4}){3})(?!\d)/g, "deu"],
  [/(?<![A-Z\d])(?:FR\s?[\dA-Z]{2}\s?\d{9}|FR\d{2}(?:\s?[\dA-Z]{4}){4})(?![\dA-Z])/g, "fra"],
  [/(?<![A-Z\d])(?:ES\s?[\dA-Z]\d{7}[\dA-Z]|ES\d{2}(?:\s?\d{4}){4})(?![\dA-Z])/g, "spa"],
  [/(?<![A-Z\d])(?:IT\s?\d{11}|IT\d{2}\s?[A-Z](?:\s?[\dA-Z]{4}){4})(?![\dA-Z])/g, "ita"],
  [/(?<![A-Z\d])(?:NL\s?\d{9}B\d{2}|NL\d{2}\s?[A-Z]{4}(?:\s?\d{4}){2})(?![\dA-Z])/g, "nld"],
  [/(?<![A-Z\d])(?:PT\s?\d{9}|PT\d{2}(?:\s?\d{4}){5})(?!\d)/g, "por"],
];

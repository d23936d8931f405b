/**
 * A till receipt's merchant where the top of the receipt does not name it plainly (extract/receipt.ts uses these):
 * - a company name ends at its legal form: what a till prints after "… SDN BHD" on the same line is the company's
 *   registration number in brackets ("(389227-V)") or OCR's reading of it, never part of the name;
 * - a line with a postcode ("DENVER, CO 54545", "39969 Köln", "LEEDS LS1 4SW", "SINGAPORE 625285") is an address, and
 *   so is a US city line whose ZIP code OCR misread ("DENVER, CO 5454s");
 *   so is a line opening with a unit or house number ("No.2, …", "Lot 13, …", "NO 290, …"), a line naming a
 *   Malay street or district ("JALAN", "TAMAN", "SEKSYEN", "KAWASAN PERINDUSTRIAN"), or a country alone ("MALAYSIA");
 * - a company's registration number is no name, whatever letters it carries ("(JM0292487-D)", "NO. SA0345444-K)");
 * - what OCR does to a till's capitals in a name is undone where the reading is certain: "!" for I after a capital
 *   ("AL! BABA"), and the Malaysian legal form read "SON BHD", "S0N BHD", "SDN 8HD" or "SDN BHO";
 * - a name whose legal form is printed on the line below ("PASARAYA BORONG PINTAR" / "SDN BHD", "POPULAR BOOK" /
 *   "CO. (M) SDN BHD") is one name;
 * - a receipt whose head only says "RECEIPT" names its merchant in the footer: "THANK YOU FOR SHOPPING AT VALLEY
 *   FOODS", or as its web address ("www.valleyfoods.com": the domain's name, "VALLEYFOODS").
 */
import type { Candidate } from "./candidate";
import { fold } from "./fuzzy";
import type { Line } from "./lines";

/** Legal forms that end a company's name (the longer ones first, so "SDN BHD" is taken whole). */
const LEGAL_FORM =
  /(?<![\p{L}])(sdn\.?\s?bhd\.?|s\/b|pte\.?\s?ltd\.?|pty\.?\s?ltd\.?|pvt\.?\s?ltd\.?|bhd\.?|ltd\.?|limited|llc|inc\.?|gmbh|kg|sarl|s\.a\.r\.l\.|sas|b\.v\.|n\.v\.|plc|tbk)(?![\p{L}])/giu;

/**
 * A company registration number in brackets at the end of a name ("(0005583085-K)", "(CO. REG. 123456-A)",
 * "(JM0761170-K)": a state's letters before the number).
 */
const REGISTRATION =
  /\s*[([{]\s*(?:co\.?\s*)?(?:reg(?:istration)?\.?\s*)?(?:no\.?\s*)?:?\s*[a-z]{0,3}\d{5,12}\s?-?\s?[a-z]\s*[)\]}]?\s*$/iu;

/**
 * `name` cut after its last legal form (a form at its very start, "PT …", is no end), or without the company
 * registration number a sole trader prints after its name.
 */
export function endAtLegalForm(name: string): string {
  let end = -1;
  for (const m of name.matchAll(LEGAL_FORM)) if (m.index! > 0) end = m.index! + m[0].length;
  if (end > 0 && end < name.length) return name.slice(0, end).trim();
  const bare = name.replace(REGISTRATION, "");
  return bare !== name && /\p{L}{2}/u.test(bare) ? bare.trim() : name;
}

/** Whether `name` is `brand` with a legal form (the registered company a logo stands for). */
export function registeredAs(brand: string, name: string): boolean {
  const flat = (x: string) => fold(x).replace(/[^\p{L}\p{N}]/gu, "");
  const cut = endAtLegalForm(name);
  const form = [...cut.matchAll(LEGAL_FORM)].some((m) => m.index! > 0);
  return form && flat(brand).length >= 3 && flat(cut).startsWith(flat(brand));
}

/** A postcode: 4-6 digits standing alone, a UK postcode, or a Dutch one ("9585 PN"). */
const POSTCODE =
  /(?<![\p{L}\p{N}\-/.:,])(\d{4,6}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|\d{4}\s[A-Z]{2})(?![\p{L}\p{N}\-/.:,]|,\d)/u;

/**
 * A US or Canadian city line: a city, a comma, the state's two capitals, then a ZIP code whose first digits are enough
 * ("DENVER, CO 5454s": a photo's last digit read as a letter, which POSTCODE no longer takes for a postcode).
 */
const CITY_STATE = /^[^\p{L}]*\p{Lu}[\p{L} .'-]{1,30},\s?[A-Z]{2}\.?\s+\d{3}/u;

/** Whether a line reads as the city-and-postcode line of an address (letters and a postcode, no amount). */
export function isPostcodeLine(text: string): boolean {
  if (/\d[.,]\d{2}(?!\d)/.test(text)) return false;
  return (POSTCODE.test(text) && /\p{L}{3}/u.test(text)) || CITY_STATE.test(text);
}

/** A line opening with a unit, lot or house number: "No.2, Jalan …", "Lot 13, …", "NO 290, …", "Unit 3-1". */
const NUMBERED = /^[^\p{L}\p{N}]*(?:no|lot|unit|blk|block|level|lvl|suite)(?:\s*no)?\.?\s*[:#]?\s*[a-z]?\d/iu;
/** Malay street and district words (Malaysia, Singapore, Brunei): a line naming one is an address. */
const MALAY_PLACE =
  /(?<![\p{L}])(jalan|jln|taman|tmn|lorong|lrg|persiaran|lebuh|lebuhraya|seksyen|sekysen|kawasan|perindustrian|kampung|kg|bandar\s+baru|pusat\s+bandar|tingkat|bangunan)(?![\p{L}])/iu;
/** A country named alone on its line: the last line of an address. */
const COUNTRY =
  /^[^\p{L}]*(malaysia|singapore|indonesia|thailand|philippines|brunei|vietnam|australia|germany|deutschland|france|nederland|netherlands|belgium|belgique|united\s+kingdom|uk|usa|united\s+states)[^\p{L}]*$/iu;

/** A name with the OCR confusions of the module comment undone. */
export function ocrName(name: string): string {
  return name
    .replace(/(?<=\p{Lu})!(?=[\s\p{Lu}.]|$)/gu, "I")
    .replace(/(?<![\p{L}\p{N}])S[O0D]N(\.?\s?)[B8]H[DO0](?![\p{L}\p{N}])/gu, (_m, sep: string) => `SDN${sep}BHD`);
}

/** Whether a line of a receipt's head is part of the merchant's address (see the module comment). */
export function isAddressLine(text: string): boolean {
  return isPostcodeLine(text) || NUMBERED.test(text) || MALAY_PLACE.test(text) || COUNTRY.test(text);
}

/** A registration number's opening: "(CO NO. SA0345444-K)", "Co. Reg No. 1234", "BR No.: (124525-H)". */
const REG_NUMBER =
  /^[^\p{L}\p{N}]*(?:(?:co|company|br|roc|reg(?:istration)?)\.?\s*)+(?:no\.?)?\s*[:.]?\s*\(?[a-z]{0,3}\d{4,}/iu;

/** Whether a value reads as a registration number rather than a name: as many digits as letters, or its label. */
export function isRegistration(value: string): boolean {
  const letters = (value.match(/\p{L}/gu) ?? []).length;
  return (value.match(/\p{N}/gu) ?? []).length >= letters || REG_NUMBER.test(value);
}

/**
 * The name `name` continued by the line below it when that line is the name's legal form ("SDN BHD",
 * "CO. (M) SDN BHD", "STATIONERY SDN.BHD"): a line of a few words ending at a legal form, under a name that has none.
 */
export function withLegalTail(name: string, next: string | undefined): string {
  if (!next || hasLegalForm(name)) return name;
  const tail = next.trim();
  const cut = endAtLegalForm(tail);
  if (!hasLegalForm(cut) || cut.split(/\s+/).length > 4 || isRegistration(cut)) return name;
  // A logo's brand over the full registered name ("GARDEN FRESH" / "GARDEN FRESH SDN BHD") is registeredAs's case.
  const first = fold(name).split(/\s+/)[0]!;
  if (fold(cut).split(/\s+/).includes(first)) return name;
  return `${name} ${cut}`;
}

function hasLegalForm(name: string): boolean {
  return [...name.matchAll(LEGAL_FORM)].some((m) => m.index! > 0 || m[0].length >= 3);
}

/**
 * The merchant named in a thank-you line: "THANK YOU FOR SHOPPING AT X", "WELCOME TO X"; the "for" may be lost (a
 * faint photo's short word: "THANK YOU SHOPPING AT VALLEY FOODS").
 */
const THANKS =
  /(?:thank\s*you\s+(?:for\s+)?(?:shopping|visiting|dining|choosing)|thank\s*you\s+for\s+your\s+visit\s+to|thanks\s+for\s+shopping|welcome\s+to|shop\s+online\s+at|visit\s+us\s+at)\s+(?:at\s+|with\s+)?(.+?)(?:[.!]\s|[\s.!]*$)/iu;
const NOT_A_NAME = /^(us|our\s+store|the\s+store|again|here)$/iu;
/** A web address: the registrable name before a common top-level domain. */
const DOMAIN =
  /(?:www\s?\.\s?|https?:\/\/)([a-z0-9][a-z0-9-]{2,})\s?\.\s?(?:com|net|org|co|de|fr|nl|my|sg|id|uk|be|at|ch|au)\b/iu;

/** Lines of the receipt's last part looked at for a name. */
const FOOTER_LINES = 8;

/** The merchant named in the footer (see the module comment), as a candidate. */
export function footerMerchant(lines: Line[]): Candidate | undefined {
  const last = lines[lines.length - 1]?.page;
  const footer = lines.filter((l) => l.page === last).slice(-FOOTER_LINES);
  for (const line of footer) {
    const m = THANKS.exec(line.text.trim());
    const name = m?.[1]?.replace(/[^\p{L}\p{N}&'’)]+$/u, "").trim();
    if (!name || NOT_A_NAME.test(name) || name.split(/\s+/).length > 6 || !/\p{L}{2}/u.test(name)) continue;
    return merchant(line, name, 0.6, "merchant thanked for the visit in the receipt's footer");
  }
  for (const line of footer) {
    const m = DOMAIN.exec(fold(line.text));
    if (m) return merchant(line, m[1]!.replace(/-/g, " ").toUpperCase(), 0.5, "merchant's web address on the receipt");
  }
  return undefined;
}

function merchant(line: Line, value: string, score: number, why: string): Candidate {
  return {
    match: { value, line, start: 0, end: line.text.length, strength: score },
    score,
    reasoning: `${why} (page ${line.page.page_number}, line ${line.index + 1})`,
  };
}

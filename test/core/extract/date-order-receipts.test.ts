/**
 * Date order evidence receipts carry (extract/date-order.ts): a weekday printed beside an ambiguous date proves its
 * order ("TUE 06/03/2018" is 6 March, a Tuesday; 3 June 2018 was a Sunday), against the country cues; and the
 * marks of Malaysian tax invoices (SROIE-like: "S/B" for Sdn Bhd, the company number in brackets, Jalan/Taman
 * addresses, a rounding adjustment) outweigh dollars with English words.
 */
import { expect, test } from "bun:test";
import { Rng } from "../../../fixtures/varied/generator/random";
import { weekdayEvidence } from "../../../src/core/extract/date-order";
import { inferDateOrder } from "../../../src/core/extract/normalize";

const p2 = (n: number) => String(n).padStart(2, "0");
const NAMES: Record<string, string[]> = {
  en: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
  de: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"],
  fr: ["DIM", "LUN", "MAR", "MER", "JEU", "VEN", "SAM"],
};

test("a weekday beside an ambiguous date decides its order, whatever the country cues say", () => {
  const r = new Rng(23);
  let checked = 0;
  for (let i = 0; i < 40; i++) {
    const [y, m, d] = [r.int(2016, 2025), r.int(1, 12), r.int(1, 12)];
    const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    if (m === d || new Date(Date.UTC(y, d - 1, m)).getUTCDay() === weekday) continue;
    const dayFirst = r.chance(0.5);
    const lang = r.pick(["en", "de", "fr"]);
    const date = dayFirst ? `${p2(d)}/${p2(m)}/${y}` : `${p2(m)}/${p2(d)}/${p2(y % 100)}`;
    const name = NAMES[lang]![weekday]!;
    const printed = r.chance(0.5) ? `${name} ${date} 13:45` : `${date} ${name}`;
    // The cues point the other way: dollars and English for a day-first date, euros and German for a month-first one.
    const text = dayFirst
      ? `CORNER MARKET\n${printed}\nTHANK YOU FOR SHOPPING\nTOTAL $12.50`
      : `Marktplatz 3\n${printed}\nSumme EUR 12,50\nVielen Dank für Ihren Einkauf, der Bon`;
    expect(inferDateOrder([text], "auto", !dayFirst ? false : true)).toBe(dayFirst ? "dmy" : "mdy");
    checked++;
  }
  expect(checked).toBeGreaterThan(20);
  expect(weekdayEvidence("DATE 06/03/2018")).toEqual({ dmy: 0, mdy: 0 });
});

test("a Malaysian tax invoice printing dollars reads its dates day first (S/B, company number, Jalan, rounding)", () => {
  const r = new Rng(29);
  for (let i = 0; i < 12; i++) {
    const head = [
      `${r.pick(["99 SPEED MART", "KEDAI MAJU", "PASAR MINI SETIA"])} ${r.pick(["S/B", "SDN BHD"])}`,
      `(${r.digits(6)}-${r.letters(1)})`,
      `LOT ${r.digits(4)}, ${r.pick(["JALAN ANGSA", "TAMAN BERKELEY", "JLN SETIA 6"])}`,
      `${r.digits(5)} ${r.pick(["KLANG", "CHERAS", "PUCHONG"])}`,
    ];
    const sums = ["TOTAL $12.47", "ROUNDING ADJ -0.02", "TOTAL ROUNDED $12.45", "THANK YOU PLEASE COME AGAIN"];
    const text = [...head, `06/03/2018 06:59PM`, ...sums].join("\n");
    expect(inferDateOrder([text], "auto", true)).toBe("dmy");
  }
});

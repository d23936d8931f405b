/** Specks dropped from a till roll read as one block (stages/ocr-specks.ts): dots, doubtful marks, doubtful guesses. */
import { expect, test } from "bun:test";
import type { Word } from "../../../src/core/model";
import { dropSpecks } from "../../../src/core/stages/ocr-specks";

const word = (text: string, confidence: number, [w, h]: [number, number], line: number, x = 0): Word => ({
  text,
  confidence,
  bounding_box: [x, line * 40, x + w, line * 40 + h],
  line,
});

test("dots, doubtful marks and short doubtful guesses go; words, amounts and sure marks stay", () => {
  const words = [
    word("STATION", 0.06, [219, 36], 1),
    word("GROCERY", 0.96, [230, 36], 1, 230),
    word("es", 0.15, [68, 6], 1, 470),
    word(":", 0.75, [3, 3], 2),
    word("STORE", 0.96, [85, 19], 2, 10),
    word("#8702", 0.68, [83, 21], 2, 100),
    word("SE", 0.18, [154, 47], 3),
    word("07:51", 0.97, [81, 22], 3, 160),
    word("°", 0.1, [17, 48], 4),
    word("9.66", 0.2, [79, 24], 4, 20),
    word("-", 0.9, [30, 4], 4, 110),
  ];
  const kept = dropSpecks({ words, text: "", confidence: 0.5 });
  expect(kept.words.map((w) => w.text)).toEqual(["STATION", "GROCERY", "STORE", "#8702", "07:51", "9.66", "-"]);
  expect(kept.text).toBe("STATION GROCERY\nSTORE #8702\n07:51\n9.66 -");
});

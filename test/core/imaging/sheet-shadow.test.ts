/**
 * A hard shadow's edge across the table is not the paper's edge (imaging/sheet-refit.ts): where the table beyond a
 * side of the paper lies in the shade, the scans from the frame's border meet the shadow's step first, on a line that
 * runs on past the paper's corners; among the steps between the sides beside it, the paper's own edge is the line
 * most of them lie on.
 */
import { describe, expect, test } from "bun:test";
import type { GreyImage } from "../../../src/core/imaging/grey.ts";
import { findSheet, type Point } from "../../../src/core/imaging/sheet.ts";
import { refitSides } from "../../../src/core/imaging/sheet-refit.ts";

function insideQuad(corners: Point[], x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b] = [corners[i]!, corners[(i + 1) % 4]!];
    const z = Math.sign((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]));
    if (z && sign && z !== sign) return false;
    if (z) sign = z;
  }
  return true;
}

/** Paper with bars of "text" at `corners` on a table; everything right of the line x = x0 + lean·y in a hard shadow. */
function shadowed(corners: Point[], [x0, lean]: [number, number], width = 800, height = 1000): GreyImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const text = y % 40 < 14 && x % 23 < 15 && (y >> 3) % 7 !== 0;
      const tone = insideQuad(corners, x, y) ? (text ? 60 : 240) : 100 + ((x * 7 + y * 13) % 11);
      data[y * width + x] = Math.round(tone * (x > x0 + lean * y ? 0.4 : 1));
    }
  return { data, width, height };
}

const near = (a: Point, b: Point, tolerance: number) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= tolerance;

describe("a hard shadow's edge across the table", () => {
  test("is not taken for the paper's side: the corners stay on the paper", () => {
    // The shadow's edge runs from the frame's top (x 620) down to the left, past the paper's top-right corner and
    // across its bottom: right of the paper the table is in the shade from the top of the frame to row ~330.
    const corners: Point[] = [
      [150, 150],
      [550, 170],
      [570, 850],
      [140, 830],
    ];
    const sheet = findSheet(shadowed(corners, [620, -0.2]));
    expect(sheet).not.toBeNull();
    // Within 25 px of the paper's corners (the sides move in past the edge's rim); the shadow's line put the
    // bottom-right corner 90 px inside the paper and the top-right one 30 px outside it.
    for (const [i, c] of sheet!.corners.entries()) expect(near(c, corners[i]!, 25)).toBe(true);
  });

  test("refitSides: the steps between the sides beside it decide, the shadow's steps past the corners do not", () => {
    // A right side (x = a·y + b) whose first fit is the shadow's line x = 620 - 0.2·y; the paper's edge
    // x = 550 + 0.03·(y - 170) has its steps from row ~330 to the bottom side at row 850, the shadow's above
    // and below the paper and down to row ~330 beside it.
    const steps: Point[] = [];
    for (let y = 0; y < 1000; y += 2) {
      const shadow = 620 - 0.2 * y;
      const paper = 550 + 0.03 * (y - 170);
      if (y < 170 || y > 850 || shadow > paper) steps.push([shadow, y]);
      else steps.push([paper, y]);
    }
    const side = (a: number, b: number, from: number, to: number) => ({ a, b, from, to });
    const sides = {
      left: side(-0.015, 152, 150, 830),
      right: side(-0.2, 620, 0, 998),
      top: side(0.05, 142.5, 150, 550),
      bottom: side(0.046, 823.5, 140, 570),
    };
    const none: Point[] = [];
    const out = refitSides(
      sides,
      { left: none, right: steps, top: none, bottom: none },
      { width: 800, height: 1000 },
      {
        near: 1.5,
        support: 0.4,
        maxLean: Math.tan((25 * Math.PI) / 180),
      },
    );
    expect(out.right!.a).toBeCloseTo(0.03, 2);
    expect(out.right!.b).toBeCloseTo(550 - 0.03 * 170, 0);
    expect(out.left).toBe(sides.left);
  });
});

/**
 * A minimal sRGB ICC profile (version 2.1, display class, matrix/TRC), made in code for the PDF/A output intent:
 * nothing to ship or license. Primaries are the sRGB ones adapted to the D50 connection space (as in the IEC
 * 61966-2-1 profiles); the tone curve is a 2.2 gamma, which the output intent only names and never uses to convert.
 */

const D50 = [0.9642, 1.0, 0.8249];
const RED = [0.4361, 0.2225, 0.0139];
const GREEN = [0.3851, 0.7169, 0.0971];
const BLUE = [0.1431, 0.0606, 0.7141];

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}
function u32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}
function s15f16(x: number): number[] {
  return u32(Math.round(x * 65536) >>> 0);
}
const pad4 = (b: number[]) => [...b, ...new Array((4 - (b.length % 4)) % 4).fill(0)];

function xyz(v: number[]): number[] {
  return [...ascii("XYZ "), 0, 0, 0, 0, ...v.flatMap(s15f16)];
}
function curve(gamma: number): number[] {
  const g = Math.round(gamma * 256);
  return [...ascii("curv"), 0, 0, 0, 0, ...u32(1), (g >> 8) & 255, g & 255];
}
function desc(s: string): number[] {
  // textDescriptionType: ASCII part, then empty Unicode and ScriptCode parts.
  return [
    ...ascii("desc"),
    0,
    0,
    0,
    0,
    ...u32(s.length + 1),
    ...ascii(s),
    0,
    ...u32(0),
    ...u32(0),
    0,
    0,
    0,
    ...new Array(67).fill(0),
  ];
}
function textType(s: string): number[] {
  return [...ascii("text"), 0, 0, 0, 0, ...ascii(s), 0];
}

let cached: Uint8Array | null = null;

export function srgbIccProfile(): Uint8Array {
  if (cached) return cached;
  const tags: Array<[string, number[]]> = [
    ["desc", desc("sRGB (docproc)")],
    ["cprt", textType("No copyright, use freely")],
    ["wtpt", xyz(D50)],
    ["rXYZ", xyz(RED)],
    ["gXYZ", xyz(GREEN)],
    ["bXYZ", xyz(BLUE)],
    ["rTRC", curve(2.2)],
    ["gTRC", curve(2.2)],
    ["bTRC", curve(2.2)],
  ];
  const tableSize = 4 + tags.length * 12;
  let offset = 128 + tableSize;
  const table: number[] = [...u32(tags.length)];
  const data: number[] = [];
  for (const [sig, body] of tags) {
    const padded = pad4(body);
    // stack-safe: a fixed profile's tags, 12 bytes of table and a few dozen of data each.
    table.push(...ascii(sig), ...u32(offset), ...u32(body.length));
    data.push(...padded); // stack-safe: as above
    offset += padded.length;
  }
  const size = 128 + tableSize + data.length;
  const header = [
    ...u32(size),
    ...ascii("none"),
    0x02,
    0x10,
    0,
    0,
    ...ascii("mntr"),
    ...ascii("RGB "),
    ...ascii("XYZ "),
    ...[2026, 1, 1, 0, 0, 0].flatMap((n) => [(n >> 8) & 255, n & 255]), // creation date and time (fixed: same bytes every run)
    ...ascii("acsp"),
    ...u32(0),
    ...u32(0),
    ...u32(0),
    ...u32(0),
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0, // platform, flags, manufacturer, model, attributes
    ...u32(0), // rendering intent: perceptual
    ...D50.flatMap(s15f16),
    ...ascii("none"),
  ];
  if (header.length !== 84) throw new Error(`ICC header is ${header.length} bytes`);
  const bytes = [...header, ...new Array(128 - header.length).fill(0), ...table, ...data];
  cached = new Uint8Array(bytes);
  return cached;
}

/** A value read from a line: where it starts and ends, how sure the reader is (values.ts and its readers). */
import type { FieldValue } from "../model";
import type { Line } from "./lines";

export interface ValueMatch {
  value: FieldValue;
  line: Line;
  start: number;
  end: number;
  strength: number;
  /** Extra character ranges on the same line that belong to the evidence (e.g. the currency symbol). */
  note?: string;
}

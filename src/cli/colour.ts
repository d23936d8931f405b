/**
 * Colour for terminal output: on when the stream is a terminal and NO_COLOR is unset (https://no-color.org), off
 * in pipes, files and CI logs, so scripts never see escape codes.
 */
import { colourWanted } from "../telemetry/colour";

export interface Paint {
  on: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const id = (s: string) => s;

export function paintFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env): Paint {
  const on = colourWanted(stream.isTTY, env);
  return on
    ? { on, red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), bold: wrap(1, 22), dim: wrap(2, 22) }
    : { on, red: id, green: id, yellow: id, bold: id, dim: id };
}

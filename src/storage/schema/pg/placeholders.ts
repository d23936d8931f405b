/**
 * `?` and `?NNN` parameters (what docproc's portable SQL uses, as SQLite does) to PostgreSQL's `$1, $2, …`. Question marks
 * inside string literals, quoted identifiers and comments are left alone. Hand-written because it is a dozen lines
 * of scanning and runs once per distinct statement (the result is cached by connection.ts).
 */
export function toNumbered(sql: string): string {
  let out = "";
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end + 1);
      i = end;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "?") {
      // `?NNN` (SQLite's numbered parameter) is PostgreSQL's `$NNN`; a bare `?` takes the next number.
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      if (digits) {
        out += `$${digits}`;
        i += digits.length;
      } else out += `$${++n}`;
    } else {
      out += c;
    }
  }
  return out;
}

/** Index of the quote that closes the literal opened at `start` (a doubled quote is an escaped one). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i;
    } else i++;
  }
  return sql.length - 1;
}

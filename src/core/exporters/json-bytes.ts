/**
 * `JSON.stringify(value, null, 2) + "\n"` as UTF-8 bytes, built a piece at a time (issue 34, memory bounded by
 * design). The results file of a long transaction is one large object: stringified whole, JavaScriptCore built it
 * as one string (two bytes a character once any character is outside Latin-1, grown by doubling) and encoding made
 * a third copy: on 2,000 pages the export stage took RSS up by ~80 MB for a 16 MB file, at the run's end. Here
 * each top-level value, and each element of a top-level array (the documents, the pages), is stringified alone
 * and encoded at once, so what is held is the file's bytes twice at most (the pieces, then the file) and one
 * element's string (a 4.2 MB results file with non-Latin-1 text: 17-19 MB of RSS against 26-38 MB stringified
 * whole).
 *
 * The bytes MUST be exactly JSON.stringify's (test/core/exporters/json-bytes.test.ts compares them): nested values
 * are stringified by JSON.stringify itself and indented one or two levels further (a newline inside a JSON text is
 * always indentation: strings escape theirs); what JSON.stringify leaves out of an object (undefined, functions,
 * symbols) is left out, and such an array element is `null`, as there.
 */
const encoder = new TextEncoder();

export function jsonBytes(value: Record<string, unknown>): Uint8Array {
  const out = new Output();
  let first = true;
  out.push("{");
  for (const [key, v] of Object.entries(value)) {
    const head = `${first ? "" : ","}\n  ${JSON.stringify(key)}: `;
    if (Array.isArray(v) && v.length > 0 && !("toJSON" in v)) {
      out.push(head + "[");
      // An index loop, not forEach: a hole in the array is `null` too.
      for (let i = 0; i < v.length; i++)
        out.push(`${i ? "," : ""}\n    ${indented(JSON.stringify(v[i], null, 2) ?? "null", "    ")}`);
      out.push("\n  ]");
    } else {
      const text = JSON.stringify(v, null, 2);
      if (text === undefined) continue;
      out.push(head + indented(text, "  "));
    }
    first = false;
  }
  out.push(first ? "}\n" : "\n}\n");
  return out.bytes();
}

const indented = (text: string, by: string) => (text.includes("\n") ? text.replaceAll("\n", "\n" + by) : text);

/** UTF-8 encoded a piece at a time (the pieces' strings are garbage at once), then joined in one buffer. */
class Output {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  push(text: string): void {
    const part = encoder.encode(text);
    this.parts.push(part);
    this.size += part.byteLength;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  }
}

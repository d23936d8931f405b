/** Error lines that name the file once, whatever prefixes the layers below added (`a.pdf: a.pdf is empty`). */
import path from "node:path";

export function nameOnce(file: string, message: string): string {
  const base = path.basename(file);
  let m = message;
  for (let again = true; again; ) {
    again = false;
    for (const p of [`${file}: `, `${base}: `]) {
      if (m.startsWith(p)) {
        m = m.slice(p.length);
        again = true;
      }
    }
  }
  if (m.includes(file)) return m;
  if (m.includes(base)) return file === base ? m : m.replace(base, file);
  return `${file}: ${m}`;
}

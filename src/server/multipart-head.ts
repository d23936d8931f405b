/**
 * The first field of a multipart/form-data body, read without reading the rest.
 *
 * Why: the public capture submit is authorised by a token inside its body. Reading the whole body (up to the 100 MB
 * body limit) before looking at the token let anyone without a key make the server hold hundreds of megabytes
 * (six concurrent 90 MB posts with a bogus token: 169 → 707 MB). The capture page and clients put `token` first,
 * so its value is in the first few hundred bytes; the caller checks it and only then reads the files, from a
 * Request that replays the bytes already taken.
 */
import { DocprocError } from "../core/errors";

export interface MultipartHead {
  /** Name of the first field, null when the body does not start with a readable part. */
  name: string | null;
  /** Its value as text (only for a field without a filename), else null. */
  value: string | null;
  /** The same request, body intact, for request.formData(). */
  replay: Request;
}

const CRLF2 = "\r\n\r\n";

export async function readMultipartHead(request: Request, maxBytes = 16 * 1024): Promise<MultipartHead> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers.get("content-type") ?? "");
  const marker = boundary ? `--${boundary[1] ?? boundary[2]}` : null;
  const reader = request.body?.getReader();
  const taken: Uint8Array[] = [];
  let text = "";
  let head: { name: string | null; value: string | null } | null = null;
  const decoder = new TextDecoder("latin1");
  while (reader && marker && !head) {
    const { done, value } = await reader.read();
    if (done) break;
    taken.push(value);
    text += decoder.decode(value, { stream: true });
    head = parseFirstPart(text, marker, text.length >= maxBytes);
  }
  head ??= { name: null, value: null };
  const rest = reader;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of taken) controller.enqueue(chunk);
      if (!rest) controller.close();
    },
    async pull(controller) {
      const { done, value } = await rest!.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => rest?.cancel(reason),
  });
  const replay = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    duplex: "half",
  } as RequestInit);
  return { ...head, replay };
}

/** The first part once it is complete; a null result when it is not yet (and `final` is false). */
function parseFirstPart(
  text: string,
  marker: string,
  final: boolean,
): { name: string | null; value: string | null } | null {
  const start = text.indexOf(marker);
  const headersEnd = start < 0 ? -1 : text.indexOf(CRLF2, start);
  if (headersEnd < 0) return final ? { name: null, value: null } : null;
  const headers = text.slice(start + marker.length, headersEnd);
  const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? "";
  const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? null;
  if (/\bfilename\*?=/i.test(disposition)) return { name, value: null };
  const end = text.indexOf(`\r\n${marker}`, headersEnd + 4);
  if (end < 0) return final ? { name, value: null } : null;
  const raw = Uint8Array.from(text.slice(headersEnd + 4, end), (c) => c.charCodeAt(0));
  return { name, value: new TextDecoder().decode(raw) };
}

/** Counts requests in flight on a public endpoint; `enter` refuses beyond `max` with 429 (rate_limited). */
export function inFlightLimit(max: number, what: string) {
  let current = 0;
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (current >= max) {
        throw new DocprocError(
          "rate_limited",
          `Too many ${what} at once (at most ${max}); try again in a few seconds`,
          { details: { retry_after: 5 } },
        );
      }
      current++;
      try {
        return await work();
      } finally {
        current--;
      }
    },
    get current() {
      return current;
    },
  };
}

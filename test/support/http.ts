/** Request and reply plumbing shared by the tests that call the API (in process or over a loopback port). */

/**
 * A RequestInit for `body`: FormData goes as it is; a string as it is (typed as JSON when `jsonStrings`, so tests
 * can send malformed JSON); anything else as JSON. A JSON body MUST replace any content-type in `headers`.
 */
export function requestInit(
  method: string,
  headers: Record<string, string>,
  body?: unknown,
  opts: { jsonStrings?: boolean } = {},
): RequestInit {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (typeof body === "string" && !opts.jsonStrings) init.body = body;
  else if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  return init;
}

/** The reply body as JSON, as its text when it is not JSON, null when empty. */
export function jsonOrText(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

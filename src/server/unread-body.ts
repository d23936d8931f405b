/**
 * An error answered before a request's body was read closes the connection. Why: to keep a connection for the
 * next request, Bun reads (and drops) the rest of an unread body, and for a chunked body it does so without any
 * limit: a bad capture submit answered 400 at once went on being read for ~100 MB, and past the body limit too.
 * With `Connection: close` Bun stops reading and closes the socket after the answer. Applied to error answers of
 * requests that carry a body; a client simply reconnects.
 */
export function closeIfBodyPending(request: Request, response: Response): Response {
  if (response.status < 400 || !hasBody(request) || response.headers.has("connection")) return response;
  response.headers.set("connection", "close");
  return response;
}

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length !== "0");
}

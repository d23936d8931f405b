/**
 * Reading a phone capture's upload and answering the public capture routes: the token checked before any file is
 * read, the deprecated files-first form (capped, with Deprecation and Sunset headers), and token-state refusals
 * as their own statuses. The routes themselves are in capture.ts.
 */
import { submitCapture, type SubmitContext } from "../../capture/submit";
import { currentToken, stateError, type CaptureContext } from "../../capture/tokens";
import { DocprocError } from "../../core/errors";
import { safeName } from "../content-types";
import { readMultipartHead, type inFlightLimit } from "../multipart-head";
import type { ServerDeps } from "../deps";
import { errorResponse, jsonResponse } from "../errors";
import { rateLimitResponse } from "../rate-limit-response";
import { closeIfBodyPending } from "../unread-body";

/** Token-state refusals get their own status so the page can tell "used" from "expired" from "unknown". */
function captureError(err: unknown): Response {
  if (err instanceof DocprocError) {
    const state = err.details?.capture_state as string | undefined;
    if (state === "consumed" || state === "expired") return jsonResponse({ detail: err.message, state }, 410);
    if (state) return jsonResponse({ detail: err.message, state }, 409);
    if (err.code === "not_found" && err.message.startsWith("Unknown capture code"))
      return jsonResponse({ detail: err.message, state: "unknown" }, 404);
  }
  if (err instanceof DocprocError && err.code === "rate_limited" && typeof err.details?.retry_after === "number") {
    return jsonResponse({ detail: err.message }, 429, { "retry-after": String(err.details.retry_after) });
  }
  return rateLimitResponse(err) ?? errorResponse(err);
}

export async function guarded(work: () => Promise<unknown> | unknown): Promise<Response> {
  try {
    return jsonResponse(await work());
  } catch (err) {
    return captureError(err);
  }
}

function assertUsable(ctx: CaptureContext, token: string): void {
  const rec = currentToken(ctx, token);
  if (rec.state !== "active") throw stateError(rec);
}

function requireMultipart(request: Request): void {
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new DocprocError(
      "invalid_input",
      "Submit pages as multipart/form-data: a `token` field and one or more `files`",
    );
  }
}

/**
 * The token is checked before any file is read (issue 21): from X-Capture-Token, else from the body's first field
 * `token` (the page and every client built on docs/capture.md send it first). The earlier form, files first and
 * the token after them (`curl -F files=@… -F token=…`), is still accepted until FILES_FIRST_SUNSET
 * (docs/api-stability.md), with Deprecation and Sunset headers: its body is read before the token can be checked,
 * so it is capped (`maxCaptureFilesFirstBytes`, counted while it streams, chunked or not) and the public uploads
 * read at once stay capped too: what a visitor without a token can make the server hold stays bounded.
 */
async function checkTokenFirst(
  ctx: CaptureContext,
  request: Request,
  filesFirstCap: number,
): Promise<{ request: Request; early: string | null; filesFirst: boolean }> {
  const header = request.headers.get("x-capture-token")?.trim();
  if (header) {
    assertUsable(ctx, header);
    return { request, early: header, filesFirst: false };
  }
  requireMultipart(request);
  const head = await readMultipartHead(request);
  if (head.name === "token") {
    const token = head.value?.trim();
    if (!token) {
      await head.replay.body?.cancel().catch(() => undefined);
      throw new DocprocError(
        "invalid_input",
        "token: empty; send it in the X-Capture-Token header or as the first multipart field `token`",
      );
    }
    assertUsable(ctx, token);
    return { request: head.replay, early: token, filesFirst: false };
  }
  if (head.name === null) {
    await head.replay.body?.cancel().catch(() => undefined);
    throw new DocprocError(
      "invalid_input",
      "token: missing; send it in the X-Capture-Token header or as the first multipart field `token`",
    );
  }
  return { request: cappedRequest(head.replay, filesFirstCap), early: null, filesFirst: true };
}

/** The request with a body that errors (413) once more than `max` bytes have streamed through. */
function cappedRequest(request: Request, max: number): Request {
  const reader = request.body!.getReader();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      seen += value.byteLength;
      if (seen <= max) return controller.enqueue(value);
      await reader.cancel().catch(() => undefined);
      controller.error(
        new DocprocError(
          "too_large",
          `A capture submit with the token after the files is limited to ${max} bytes; send the token first (or in X-Capture-Token) for larger uploads`,
        ),
      );
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    duplex: "half",
  } as RequestInit);
}

/** When the files-first form stops being accepted (HTTP-date, RFC 8594), and when it was deprecated (RFC 9745). */
export const FILES_FIRST_SUNSET = "Sat, 01 May 2027 00:00:00 GMT";
const FILES_FIRST_DEPRECATED = "@1795737600"; // 2026-11-27
export const DEFAULT_FILES_FIRST_BYTES = 20 * 1024 * 1024;

function markDeprecated(response: Response): Response {
  response.headers.set("deprecation", FILES_FIRST_DEPRECATED);
  response.headers.set("sunset", FILES_FIRST_SUNSET);
  return response;
}

async function readCaptureForm(request: Request) {
  requireMultipart(request);
  let form: FormData;
  try {
    form = await request.formData();
  } catch (err) {
    if (err instanceof DocprocError) throw err; // the files-first cap
    throw new DocprocError("invalid_input", "Malformed multipart body");
  }
  const token = form.get("token");
  const files = form.getAll("files").filter((v): v is File => typeof v !== "string");
  const data = await Promise.all(
    files.map(async (f, i) => ({ filename: safeName(f.name, i), data: new Uint8Array(await f.arrayBuffer()) })),
  );
  return { token: typeof token === "string" ? token.trim() : "", files: data };
}

export interface SubmitRouteContext {
  deps: ServerDeps;
  ctx: CaptureContext;
  submitContext: () => SubmitContext;
  /** Public uploads held in memory at once (capture.ts). */
  uploads: ReturnType<typeof inFlightLimit>;
}

/** `POST /capture/submit`: the token first, then the files, submitted as one capture. */
export async function submitRoute(request: Request, { deps, ctx, submitContext, uploads }: SubmitRouteContext) {
  let filesFirst = false;
  const response = await guarded(() =>
    uploads.run(async () => {
      const first = await checkTokenFirst(
        ctx,
        request,
        Math.min(deps.config.maxBodyBytes, deps.config.maxCaptureFilesFirstBytes ?? DEFAULT_FILES_FIRST_BYTES),
      );
      filesFirst = first.filesFirst;
      const { token, files } = await readCaptureForm(first.request);
      if (!token) throw new DocprocError("invalid_input", "token: missing (multipart field `token`)");
      if (first.early && first.early !== token)
        throw new DocprocError("invalid_input", "token: the X-Capture-Token header and the form field differ");
      return submitCapture(submitContext(), token, files);
    }),
  );
  if (filesFirst) {
    deps.telemetry?.log.warn(
      {
        event: "deprecated_request",
        route: "/capture/submit",
        form: "token after files",
        status: response.status,
        sunset: FILES_FIRST_SUNSET,
      },
      `capture submit with the token after the files (deprecated, accepted until ${FILES_FIRST_SUNSET}): send it first or in X-Capture-Token`,
    );
    markDeprecated(response);
  }
  return closeIfBodyPending(request, response);
}

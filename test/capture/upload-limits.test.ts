/**
 * Issue 21, the public capture submit: the token is checked before the files are read, and uploads held at once
 * are capped. Before, six concurrent 90 MB posts with a bogus token (no key needed) took the server from 169 to
 * 707 MB: every body was read whole before the token was looked at. Here the bodies are streams that count what
 * the server pulls from them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FILES_FIRST_SUNSET } from "../../src/server/routes/capture-submit";
import { captureApp, captureForm } from "./helpers";

type App = Awaited<ReturnType<typeof captureApp>>;
let s: App;
let pid = "";
const MB = 1024 * 1024;

beforeAll(async () => {
  s = await captureApp({ config: { maxPublicUploads: 2, maxCaptureFilesFirstBytes: 1 * 1024 * 1024 } });
  pid = await s.project();
});
afterAll(async () => s.close());

async function activeToken(): Promise<string> {
  const minted = await s.admin("POST", `/tenants/default/projects/${pid}/capture-tokens`, {});
  expect(minted.status).toBe(201);
  expect((await s.scan(minted.json.token)).status).toBe(200);
  return minted.json.token;
}

/**
 * A multipart body: `fields` first, then one file of `fileBytes` zero bytes, produced lazily in 64 KB chunks.
 * `pulled()` tells how many bytes the reader took; `gate` (when given) holds the file bytes back until it opens.
 */
function streamingForm(fields: Array<[string, string]>, fileBytes: number, gate?: Promise<void>) {
  const boundary = "----hostile-boundary-21";
  const enc = new TextEncoder();
  const head = fields
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("");
  const parts = [
    enc.encode(
      head +
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
  ];
  let pulled = 0;
  let sent = 0;
  let reachGate = () => {};
  /** Settles when the reader asks for the file's bytes: the handler is inside, past the form's head. */
  const atGate = new Promise<void>((resolve) => (reachGate = resolve));
  const chunk = new Uint8Array(64 * 1024);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = parts.shift();
      if (next) {
        pulled += next.length;
        controller.enqueue(next);
        return;
      }
      reachGate();
      if (gate) await gate;
      if (sent >= fileBytes) {
        controller.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      const n = Math.min(chunk.length, fileBytes - sent);
      sent += n;
      pulled += n;
      controller.enqueue(chunk.subarray(0, n));
    },
  });
  const request = (headers: Record<string, string> = {}) =>
    new Request("http://phone.test/capture/submit", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, ...headers },
      body,
      duplex: "half",
    } as RequestInit);
  return { request, pulled: () => pulled, atGate };
}

describe("capture submit reads the token first (files first: deprecated, capped)", () => {
  test("a bogus token in the first field is refused (404) after reading well under 1 MB of a 32 MB body", async () => {
    const form = streamingForm([["token", "dp_cap_" + "x".repeat(43)]], 32 * MB);
    const reply = await appHandle(form.request());
    expect(reply.status).toBe(404);
    expect((await reply.json()).state).toBe("unknown");
    expect(form.pulled()).toBeLessThan(1 * MB);
  });

  test("files first without a token (deprecated form): read only up to its cap, then 413, with the deprecation headers", async () => {
    const form = streamingForm([], 32 * MB);
    const reply = await appHandle(form.request());
    expect(reply.status).toBe(413);
    expect((await reply.json()).detail).toContain("token after the files");
    expect(reply.headers.get("sunset")).toBe(FILES_FIRST_SUNSET);
    expect(reply.headers.get("deprecation")).toMatch(/^@\d+$/);
    expect(form.pulled()).toBeGreaterThan(1 * MB);
    expect(form.pulled()).toBeLessThan(1.5 * MB);
  });

  test("files first, token after (deprecated form) still uploads, answered with Deprecation and Sunset", async () => {
    const token = await activeToken();
    const jpeg = await Bun.file(new URL("../../fixtures/inbox/phone-photo.jpg", import.meta.url)).bytes();
    const form = new FormData();
    form.append("files", new File([jpeg], "p.jpg", { type: "image/jpeg" }));
    form.append("token", token);
    const reply = await s.call("POST", "/capture/submit", {}, form);
    expect(reply.status).toBe(200);
    expect(reply.json.file_count).toBe(1);
    expect(reply.headers.get("sunset")).toBe(FILES_FIRST_SUNSET);
    expect(reply.headers.get("deprecation")).toMatch(/^@\d+$/);
    // The token first: no deprecation.
    const again = await s.call(
      "POST",
      "/capture/submit",
      {},
      captureForm(await activeToken(), [{ name: "p.jpg", data: jpeg, type: "image/jpeg" }]),
    );
    expect(again.status).toBe(200);
    expect(again.headers.get("deprecation")).toBeNull();
  });

  test("files first with a bogus token: 404 once read (within the cap), deprecated", async () => {
    const boundary = "----b";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nxx\r\n--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\ndp_cap_${"z".repeat(43)}\r\n--${boundary}--\r\n`;
    const reply = await appHandle(
      new Request("http://phone.test/capture/submit", {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
      }),
    );
    expect(reply.status).toBe(404);
    expect(reply.headers.get("sunset")).toBe(FILES_FIRST_SUNSET);
  });

  test("a valid token first still uploads: the bytes already read are replayed to the form parser", async () => {
    const token = await activeToken();
    const jpeg = await Bun.file(new URL("../../fixtures/inbox/phone-photo.jpg", import.meta.url)).bytes();
    const reply = await s.call(
      "POST",
      "/capture/submit",
      {},
      captureForm(token, [{ name: "p.jpg", data: jpeg, type: "image/jpeg" }]),
    );
    expect(reply.status).toBe(200);
    expect(reply.json.file_count).toBe(1);
  });
});

describe("public uploads held at once are capped", () => {
  test("a third concurrent upload is 429 with Retry-After; the first two go on", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const tokens = [await activeToken(), await activeToken(), await activeToken()];
    const slow = tokens.slice(0, 2).map((token) => streamingForm([["token", token]], 256 * 1024, gate));
    const pending = slow.map((f) => appHandle(f.request()));
    await Promise.all(slow.map((f) => f.atGate)); // both are inside the handler, waiting for their file bytes
    const third = await appHandle(streamingForm([["token", tokens[2]!]], 1024).request());
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("5");
    expect((await third.json()).detail).toContain("at most 2");
    open();
    // The held uploads finish (their zero-byte "JPEG" is refused as not an image, 415): they were never cut off.
    const done = await Promise.all(pending);
    expect(done.map((r) => r.status)).toEqual([415, 415]);
    // And the slots are free again.
    const after = await appHandle(streamingForm([["token", "dp_cap_" + "y".repeat(43)]], 1024).request());
    expect(after.status).toBe(404);
  });
});

const appHandle = (request: Request) => s.handle(request);

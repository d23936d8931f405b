/**
 * Issue 38 on a real `docproc serve` over loopback: (1) a capture submit answered with an error before its body was
 * read closes the connection (before: Bun went on reading a chunked body, ~100 MB and past the body limit, after the
 * 4xx); (2) the deprecated files-first form works and is logged. A raw socket streams the chunked body and counts
 * what it could write before the server closed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { freePort, spawnServe, type Served } from "../support/process";
import { removeAll, tempDir } from "../support/temp";

const KEY = "unread-body-admin-key";
const MB = 1024 * 1024;
const dirs: string[] = [];
let s: Served;

beforeAll(async () => {
  s = await spawnServe({
    dataDir: tempDir("docproc-unread-", dirs),
    port: await freePort(),
    key: KEY,
    workers: 0,
    env: { DOCPROC_LOG_LEVEL: "info", DOCPROC_LOG_FORMAT: "json" },
  });
});
afterAll(async () => {
  s.proc.kill("SIGTERM");
  await s.proc.exited;
  removeAll(dirs);
});

/** Streams a chunked multipart body (`head` then zero bytes) until the server closes; MB written and the answer. */
async function streamUntilClosed(
  head: string,
  limitBytes: number,
): Promise<{ written: number; answer: string; closed: boolean }> {
  const port = Number(new URL(s.base).port);
  const sock = net.connect(port, "127.0.0.1");
  let answer = "";
  let closed = false;
  sock.on("data", (d) => (answer += d.toString("latin1")));
  const ended = new Promise<void>((resolve) => {
    sock.on("close", () => ((closed = true), resolve()));
    sock.on("error", () => ((closed = true), resolve()));
  });
  await new Promise((r) => sock.once("connect", r));
  const frame = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]);
  sock.write(
    `POST /capture/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=bnd\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  sock.write(frame(Buffer.from(head)));
  const zeros = frame(Buffer.alloc(64 * 1024));
  let written = 0;
  while (!closed && written < limitBytes) {
    written += 64 * 1024;
    // Back-pressure: wait for the socket to drain, or for the server to close it.
    if (!sock.write(zeros)) await Promise.race([new Promise((r) => sock.once("drain", r)), ended]);
  }
  sock.destroy();
  return { written, answer, closed };
}

describe("a capture submit answered before its body is read", () => {
  test("a bogus token first (chunked): 404 and the connection closes; the client cannot push 100 MB", async () => {
    const head = `--bnd\r\nContent-Disposition: form-data; name="token"\r\n\r\ndp_cap_${"x".repeat(43)}\r\n--bnd\r\nContent-Disposition: form-data; name="files"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const r = await streamUntilClosed(head, 100 * MB);
    // The close may reach the client as a reset that drops the answer from its buffer: the answer itself is checked
    // below with a body that ends.
    if (r.answer) expect(r.answer).toStartWith("HTTP/1.1 404");
    expect(r.closed).toBe(true);
    // Socket buffers on both sides take a few MB at most before the close is seen.
    expect(r.written).toBeLessThan(16 * MB);
  });

  test("files first, no token (chunked): read up to the files-first cap (20 MB), 413, closed", async () => {
    const head = `--bnd\r\nContent-Disposition: form-data; name="files"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const r = await streamUntilClosed(head, 100 * MB);
    if (r.answer) expect(r.answer).toStartWith("HTTP/1.1 413");
    expect(r.closed).toBe(true);
    expect(r.written).toBeGreaterThan(20 * MB);
    expect(r.written).toBeLessThan(36 * MB);
  });
});

test("the error answer itself: 404 with Connection: close to a chunked submit with a bogus token", async () => {
  const head = `--bnd\r\nContent-Disposition: form-data; name="token"\r\n\r\ndp_cap_${"x".repeat(43)}\r\n--bnd\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\n\r\nxx\r\n--bnd--\r\n`;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode(head)), c.close()) });
  const res = await fetch(`${s.base}/capture/submit`, {
    method: "POST",
    headers: { "content-type": "multipart/form-data; boundary=bnd" },
    body,
    duplex: "half",
  } as RequestInit);
  expect(res.status).toBe(404);
  expect(res.headers.get("connection")).toBe("close");
  expect((await res.json()).state).toBe("unknown");
});

test("files first, token after (curl -F files=@… -F token=…): accepted, Deprecation and Sunset headers, one log line", async () => {
  const admin = { "x-api-key": KEY, "content-type": "application/json" };
  const project = await (
    await fetch(`${s.base}/tenants/default/projects`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ name: "p", description: "" }),
    })
  ).json();
  const minted = await (
    await fetch(`${s.base}/tenants/default/projects/${project.project_id}/capture-tokens`, {
      method: "POST",
      headers: admin,
      body: "{}",
    })
  ).json();
  expect(
    (
      await fetch(`${s.base}/capture/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: minted.token }),
      })
    ).status,
  ).toBe(200);
  const form = new FormData();
  form.append(
    "files",
    new File([await Bun.file(new URL("../../fixtures/inbox/phone-photo.jpg", import.meta.url)).bytes()], "photo.jpg", {
      type: "image/jpeg",
    }),
  );
  form.append("token", minted.token);
  const res = await fetch(`${s.base}/capture/submit`, { method: "POST", body: form });
  expect(res.status).toBe(200);
  expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
  expect(res.headers.get("sunset")).toMatch(/GMT$/);
  // One line per deprecated request (the 413 above logged its own).
  const lines = s
    .output()
    .split("\n")
    .filter((l) => l.includes('"deprecated_request"') && l.includes('"status":200'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("token after files");
});

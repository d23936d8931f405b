/** Capture tokens through the real app (app.handle) with a fake clock: minting, lifecycle, acting key, server rules. */
import { storedText } from "../support/postgres";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { blankPdf, captureApp, captureForm, scanJpeg } from "./helpers";

type App = Awaited<ReturnType<typeof captureApp>>;
let s: App;
let project: string;
let key: string;
let keyId: string;
let jpeg: Uint8Array;

const mintPath = () => `/tenants/default/projects/${project}/capture-tokens`;
const mint = (body: Record<string, unknown> = {}, as = key) => s.withKey(as)("POST", mintPath(), body);
const photo = (i: number) => ({ name: `page-${i}.jpg`, data: jpeg, type: "image/jpeg" });

beforeAll(async () => {
  s = await captureApp();
  project = await s.project();
  ({ key, keyId } = await s.clientKey("scanner-desk"));
  jpeg = await scanJpeg("FlipkartInvoice", 400);
});
afterAll(() => s.close());

describe("minting", () => {
  test("returns an opaque token in the capture_url fragment, a pre-allocated id, expiry and page cap; stores only a digest", async () => {
    const r = await mint({ label: "desk 3" });
    expect(r.status).toBe(201);
    const t = r.json;
    expect(t.token).toMatch(/^dp_cap_[A-Za-z0-9_-]{43}$/);
    expect(t.transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.capture_url).toBe(`http://phone.test/capture#${t.token}`);
    expect(t.qr_svg.startsWith("<svg")).toBe(true);
    expect(t.qr_svg).not.toContain("href");
    expect(t.expires_at).toBe(new Date(s.clock.now() + 900_000).toISOString());
    expect(t.max_pages).toBe(20);
    expect(t.ttl_seconds).toBe(900);
    expect(t.label).toBe("desk 3");
    const file = storedText(s.db, s.dir, ["capture_tokens"]);
    expect(file).not.toContain(t.token);
    expect(file).toContain(new Bun.CryptoHasher("sha256").update(t.token).digest("hex"));
  });

  test("page_limit becomes max_pages; ttl_seconds above 3600 or below 1 is a 400; playground is accepted, memory is not", async () => {
    expect((await mint({ page_limit: 5, ttl_seconds: 3600, dataset_id: "playground" })).json).toMatchObject({
      max_pages: 5,
      ttl_seconds: 3600,
      dataset_id: "playground",
    });
    const over = await mint({ ttl_seconds: 3601 });
    expect(over.status).toBe(400);
    expect(over.json.detail).toContain("ttl_seconds");
    expect((await mint({ ttl_seconds: 0 })).status).toBe(400);
    expect((await mint({ dataset_id: "memory" })).status).toBe(400);
  });

  test("needs transaction.create; another tenant's project answers 404; an unknown reviewer is a 400", async () => {
    const reader = await s.clientKey("reader", { permissions: ["transaction.read"] });
    const denied = await mint({}, reader.key);
    expect(denied.status).toBe(403);
    expect(denied.json.detail).toContain("transaction.create");
    expect((await s.call("POST", mintPath(), {}, {})).status).toBe(401);
    await s.admin("POST", "/admin/tenants", { tenant_id: "other" });
    const foreign = await s.project("other");
    expect((await s.withKey(key)("POST", `/tenants/other/projects/${foreign}/capture-tokens`, {})).status).toBe(404);
    const reviewer = await mint({ reviewer_id: "nobody" });
    expect(reviewer.status).toBe(400);
    expect(reviewer.json.detail).toContain("reviewer_id");
  });

  test("a session user cannot mint: the capture acts for a key, and a session is not one", async () => {
    expect(
      (await s.admin("POST", "/admin/users", { username: "clerk", password: "correct horse battery" })).status,
    ).toBe(201);
    const login = await s.call("POST", "/auth/login", {}, { username: "clerk", password: "correct horse battery" });
    const r = await s.call("POST", mintPath(), { "x-session-token": login.json.session_token }, {});
    expect(r.status).toBe(403);
    expect(r.json.detail).toContain("API key");
    expect((await mint({ reviewer_id: "clerk" })).status).toBe(201);
  });

  test("the QR encodes capture_url: rasterised with sharp and read back by jsQR", async () => {
    const t = (await mint()).json;
    const sharp = (await import("sharp")).default;
    const { data, info } = await sharp(Buffer.from(t.qr_svg), { density: 300 })
      .resize(600, 600, { fit: "inside" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const jsQR = (await import("jsqr")).default;
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
    expect(code?.data).toBe(t.capture_url);
  });
});

describe("lifecycle", () => {
  test("issued → active → consumed: the transaction exists only after submit, with the pre-allocated id; a second submit is refused", async () => {
    const t = (await mint()).json;
    const asKey = s.withKey(key);
    expect((await asKey("GET", `/transactions/${t.transaction_id}`)).status).toBe(404);
    expect((await asKey("GET", `${mintPath()}/${t.transaction_id}`)).json.state).toBe("issued");
    const scan = await s.scan(t.token);
    expect(scan.status).toBe(200);
    expect(scan.json).toMatchObject({
      state: "active",
      transaction_id: t.transaction_id,
      max_pages: 20,
      seconds_left: 900,
    });
    expect((await asKey("GET", `/transactions/${t.transaction_id}`)).status).toBe(404);
    const sent = await s.submit(t.token, [photo(1), photo(2), photo(3)]);
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({
      transaction_id: t.transaction_id,
      status: "processing",
      file_count: 3,
      page_count: 3,
    });
    const txn = await asKey("GET", `/transactions/${t.transaction_id}`);
    expect(txn.status).toBe(200);
    expect(txn.json).toMatchObject({
      transaction_id: t.transaction_id,
      project_id: project,
      tenant_id: "default",
      dataset_id: "production",
    });
    expect(["queued", "processing"]).toContain(txn.json.status);
    const again = await s.submit(t.token, [photo(1)]);
    expect(again.status).toBe(410);
    expect(again.json.state).toBe("consumed");
    expect((await s.scan(t.token)).json.state).toBe("consumed");
    expect((await asKey("GET", `${mintPath()}/${t.transaction_id}`)).json).toMatchObject({
      state: "consumed",
      consumed_at: new Date(s.clock.now()).toISOString(),
    });
  });

  test("an unscanned code expires at expires_at exactly, and cannot be opened afterwards", async () => {
    const t = (await mint({ ttl_seconds: 60 })).json;
    s.clock.advance(59_999);
    const early = (await mint({ ttl_seconds: 60 })).json; // control: minted later, still fresh
    s.clock.advance(1);
    const late = await s.scan(t.token);
    expect(late.status).toBe(410);
    expect(late.json).toMatchObject({ state: "expired" });
    expect(late.json.detail).toContain("expired");
    expect((await s.withKey(key)("GET", `${mintPath()}/${t.transaction_id}`)).json).toMatchObject({
      state: "expired",
      expired_at: t.expires_at,
      scanned_at: null,
    });
    expect((await s.scan(early.token)).status).toBe(200);
  });

  test("a scanned code's window runs ttl from the first scan (past the original expires_at), then it expires", async () => {
    const t = (await mint({ ttl_seconds: 60 })).json;
    s.clock.advance(50_000);
    expect((await s.scan(t.token)).json.seconds_left).toBe(60);
    s.clock.advance(30_000); // 80 s after minting: past expires_at, inside the window
    const reload = await s.scan(t.token);
    expect(reload.json).toMatchObject({ state: "active", seconds_left: 30 });
    s.clock.advance(30_000);
    const sent = await s.submit(t.token, [photo(1)]);
    expect(sent.status).toBe(410);
    expect(sent.json.state).toBe("expired");
    expect((await s.withKey(key)("GET", `/transactions/${t.transaction_id}`)).status).toBe(404);
  });

  test("a submit without a scan is refused (409), and an unknown token is a 404 the page can tell apart", async () => {
    const t = (await mint()).json;
    const early = await s.submit(t.token, [photo(1)]);
    expect(early.status).toBe(409);
    expect(early.json.state).toBe("issued");
    const unknown = await s.scan("dp_cap_" + "x".repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.json.state).toBe("unknown");
    expect((await s.scan("")).status).toBe(400);
  });

  test("X-Capture-Token lets the server refuse a used code before reading the upload; it must match the form's token", async () => {
    const t = (await mint()).json;
    const other = (await mint()).json;
    await s.scan(t.token);
    const mismatch = await s.call(
      "POST",
      "/capture/submit",
      { "x-capture-token": t.token },
      captureForm(other.token, [photo(1)]),
    );
    expect(mismatch.status).toBe(400);
    expect(
      (await s.call("POST", "/capture/submit", { "x-capture-token": t.token }, captureForm(t.token, [photo(1)])))
        .status,
    ).toBe(200);
    const used = await s.call(
      "POST",
      "/capture/submit",
      { "x-capture-token": t.token, "content-type": "multipart/form-data; boundary=x" },
      "--x\r\nnot even a valid body",
    );
    expect(used.status).toBe(410);
    expect(used.json.state).toBe("consumed");
  });

  test("tokens are forgotten 30 days after their last possible use; the transaction stays", async () => {
    const t = (await mint({ ttl_seconds: 60 })).json;
    await s.scan(t.token);
    expect((await s.submit(t.token, [photo(1)])).status).toBe(200);
    const unused = (await mint({ ttl_seconds: 60 })).json;
    s.clock.advance(30 * 24 * 3600_000 + 61_000);
    await mint(); // minting does the housekeeping
    expect((await s.withKey(key)("GET", `${mintPath()}/${t.transaction_id}`)).status).toBe(404);
    expect((await s.withKey(key)("GET", `${mintPath()}/${unused.transaction_id}`)).status).toBe(404);
    expect((await s.withKey(key)("GET", `/transactions/${t.transaction_id}`)).status).toBe(200);
    expect((await s.scan(unused.token)).json.state).toBe("unknown");
  });

  test("of two simultaneous submits exactly one creates the transaction", async () => {
    const t = (await mint()).json;
    await s.scan(t.token);
    const [a, b] = await Promise.all([s.submit(t.token, [photo(1)]), s.submit(t.token, [photo(2)])]);
    expect([a.status, b.status].sort()).toEqual([200, 410]);
    const files = s.db
      .query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM source_files WHERE transaction_id = ?")
      .get(t.transaction_id);
    expect(files?.n).toBe(1);
  });
});

describe("acting for the minting key", () => {
  test("a revoked key makes the capture fail, and the token stays unused", async () => {
    const k = await s.clientKey("short-lived");
    const t = (await mint({}, k.key)).json;
    await s.scan(t.token);
    expect((await s.admin("DELETE", `/admin/clients/short-lived/keys/${k.keyId}`)).status).toBe(200);
    const r = await s.submit(t.token, [photo(1)]);
    expect(r.status).toBe(403);
    expect(r.json.detail).toContain("revoked");
    expect((await s.admin("GET", `${mintPath()}/${t.transaction_id}`)).json.state).toBe("active");
  });

  test("a key that lost transaction.create after minting cannot submit through the capture", async () => {
    const k = await s.clientKey("demoted");
    const t = (await mint({}, k.key)).json;
    await s.scan(t.token);
    await s.admin("PATCH", "/admin/clients/demoted", {
      permissions: ["transaction.read", "split", "classify", "extract"],
    });
    const r = await s.submit(t.token, [photo(1)]);
    expect(r.status).toBe(403);
    expect(r.json.detail).toContain("transaction.create");
  });

  test("the submit counts as a task submission of the minting key (async limit)", async () => {
    const k = await s.clientKey("budget", { async_limit_per_hour: 2 });
    const t = (await mint({}, k.key)).json; // 1st task submission
    await s.scan(t.token);
    expect((await s.submit(t.token, [photo(1)])).status).toBe(200); // 2nd
    const third = await mint({}, k.key);
    expect(third.status).toBe(429);
    expect(third.json.error).toBe("rate_limit_exceeded");
  });

  test("a token minted with the admin key works while that admin key is current", async () => {
    const t = (await s.admin("POST", mintPath(), { page_limit: 1 })).json;
    await s.scan(t.token);
    expect((await s.submit(t.token, [photo(1)])).json).toMatchObject({ status: "processing", page_count: 1 });
  });
});

describe("server-side rules", () => {
  const active = async (body: Record<string, unknown> = {}) => {
    const t = (await mint(body)).json;
    expect((await s.scan(t.token)).status).toBe(200);
    return t;
  };

  test("more pages than max_pages is a 413 naming both counts, PDF pages included; the token stays usable", async () => {
    const t = await active({ page_limit: 3 });
    const r = await s.submit(t.token, [
      photo(1),
      { name: "three.pdf", data: await blankPdf(3), type: "application/pdf" },
    ]);
    expect(r.status).toBe(413);
    expect(r.json.detail).toBe("4 pages submitted; this capture code accepts at most 3");
    const ok = await s.submit(t.token, [{ name: "three.pdf", data: await blankPdf(3), type: "application/pdf" }]);
    expect(ok.json).toMatchObject({ page_count: 3, file_count: 1 });
  });

  test("content decides, not names: a text file named .jpg is a 415, an empty file a 422, no files a 400", async () => {
    const t = await active();
    const fake = await s.submit(t.token, [
      { name: "photo.jpg", data: new TextEncoder().encode("not an image at all"), type: "image/jpeg" },
    ]);
    expect(fake.status).toBe(415);
    expect(fake.json.detail).toContain("photo.jpg is not a PDF or an image");
    expect((await s.submit(t.token, [{ name: "empty.jpg", data: new Uint8Array(0) }])).status).toBe(422);
    expect((await s.submit(t.token, [])).status).toBe(400);
    const truncated = await s.submit(t.token, [
      { name: "cut.pdf", data: new TextEncoder().encode("%PDF-1.7\n1 0 obj garbage") },
    ]);
    expect(truncated.status).toBe(422);
    expect((await s.withKey(key)("GET", `${mintPath()}/${t.transaction_id}`)).json.state).toBe("active");
  });

  test("a file above the per-file size limit is a 413", async () => {
    const small = await captureApp({ config: { maxFileBytes: 10_000 } });
    try {
      const p = await small.project();
      const t = (await small.admin("POST", `/tenants/default/projects/${p}/capture-tokens`, {})).json;
      await small.scan(t.token);
      const r = await small.submit(t.token, [photo(1)]);
      expect(r.status).toBe(413);
      expect(r.json.detail).toContain("limit");
    } finally {
      await small.close();
    }
  });
});

describe("the page", () => {
  test("GET /capture needs no key and is self-contained: inline script and style allowed by hash, nothing external", async () => {
    const r = await s.call("GET", "/capture");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    const csp = r.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const html = r.json as string;
    expect(html).toContain('capture="environment"');
    expect(html).not.toMatch(/(src|href)=["']https?:/);
    expect(html).not.toContain("/*CAPTURE_JS*/");
  });
});

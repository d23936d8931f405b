/** Capture tests: the real app over a temp data directory, called with app.handle (no port), with a fake clock. */
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { AuthSettings } from "../../src/auth/settings";
import type { ServerConfig } from "../../src/server/config";
import { fakeClock } from "../../src/core/clock";
import { buildTestApp } from "../support/app";
import { jsonOrText, requestInit } from "../support/http";

export const ADMIN = "capture-test-admin-key";
export const CORPUS = path.resolve(import.meta.dir, "../../fixtures/corpora/invoice2data");

export interface Reply {
  status: number;
  json: any;
  headers: Headers;
}

export async function captureApp(opts: { auth?: Partial<AuthSettings>; config?: Partial<ServerConfig> } = {}) {
  const clock = fakeClock(Date.parse("2026-03-01T10:00:00Z"));
  const t = buildTestApp({
    adminKey: ADMIN,
    prefix: "capture",
    clock,
    auth: opts.auth,
    config: opts.config,
    wirePool: false,
  });

  async function call(
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<Reply> {
    const res = await t.app.handle(new Request(`http://phone.test${url}`, requestInit(method, headers, body)));
    return { status: res.status, json: jsonOrText(await res.text()), headers: res.headers };
  }
  const admin = (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": ADMIN }, body);

  return {
    dir: t.dir,
    db: t.data.db,
    clock,
    call,
    /** The app itself, for requests built by hand (streaming bodies). */
    handle: (request: Request) => t.app.handle(request),
    admin,
    withKey: (key: string) => (method: string, url: string, body?: unknown) =>
      call(method, url, { "x-api-key": key }, body),
    async project(tenant = "default"): Promise<string> {
      const r = await admin("POST", `/tenants/${tenant}/projects`, { name: "Capture", description: "" });
      if (r.status !== 201) throw new Error(`project: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.project_id;
    },
    /** A client (admin API) with one key. */
    async clientKey(clientId: string, fields: Record<string, unknown> = {}): Promise<{ key: string; keyId: string }> {
      const c = await admin("POST", "/admin/clients", { client_id: clientId, name: clientId, ...fields });
      if (c.status !== 201) throw new Error(`client ${clientId}: ${c.status} ${JSON.stringify(c.json)}`);
      const k = await admin("POST", `/admin/clients/${clientId}/keys`, { description: "capture test" });
      return { key: k.json.api_key, keyId: k.json.key_id };
    },
    scan: (token: string) => call("POST", "/capture/session", {}, { token }),
    submit: (token: string, files: Array<{ name: string; data: Uint8Array; type?: string }>) =>
      call("POST", "/capture/submit", {}, captureForm(token, files)),
    close: () => t.close(),
  };
}

export function captureForm(token: string, files: Array<{ name: string; data: Uint8Array; type?: string }>): FormData {
  const form = new FormData();
  form.append("token", token);
  for (const f of files)
    form.append("files", new File([f.data as BlobPart], f.name, { type: f.type ?? "application/octet-stream" }));
  return form;
}

/** A small real scan from the corpus as JPEG (longest side `side` px). */
export async function scanJpeg(name: string, side = 700): Promise<Uint8Array> {
  const src = readFileSync(path.join(CORPUS, `${name}.png`));
  return new Uint8Array(
    await sharp(src, { limitInputPixels: 50_000_000 })
      .resize(side, side, { fit: "inside" })
      .flatten({ background: "#fff" })
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
}

/** A PDF of `pages` blank pages (pdf-lib). */
export async function blankPdf(pages: number): Promise<Uint8Array> {
  const { PDFDocument } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Page ${i + 1}`, { x: 72, y: 760, size: 24 });
  return doc.save();
}

/** Capture tests: the real app over a temp data directory, called with app.handle (no port), with a fake clock. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { DEFAULT_AUTH_SETTINGS, type AuthSettings } from "../../src/auth/settings";
import { openDataDir, startWorkerRuntime } from "../../src/queue/runtime";
import { createApp } from "../../src/server/app";
import { DEFAULT_CONFIG, type ServerConfig } from "../../src/server/config";
import type { ServerDeps } from "../../src/server/deps";
import { createLongPoll } from "../../src/server/long-poll";
import { fakeClock } from "../../src/storage/clock";
import { fakeRunner } from "../server/helpers";

export const ADMIN = "capture-test-admin-key";
export const CORPUS = path.resolve(import.meta.dir, "../../../shared/corpora/invoice2data");

export interface Reply {
  status: number;
  json: any;
  headers: Headers;
}

export async function captureApp(opts: { auth?: Partial<AuthSettings>; config?: Partial<ServerConfig> } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-capture-"));
  const data = openDataDir(dir);
  const clock = fakeClock(Date.parse("2026-03-01T10:00:00Z"));
  const runtime = startWorkerRuntime({ data, concurrency: 0, clock, runPipeline: fakeRunner });
  const config: ServerConfig = { ...DEFAULT_CONFIG, adminApiKey: ADMIN, longPollRecheckMs: 100, auth: { ...DEFAULT_AUTH_SETTINGS, ...opts.auth }, ...opts.config };
  const deps: ServerDeps = {
    db: data.db,
    clock,
    blobs: data.blobs,
    notifier: runtime.notifier,
    config,
    exportsRoot: data.exportsRoot,
    workers: 1,
    wake: () => {},
    running: () => 0,
    ocrStatus: () => ({ status: "idle" }),
  };
  const longPoll = createLongPoll(data.db, runtime.notifier, config.longPollRecheckMs);
  const app = createApp(deps, longPoll);

  async function call(method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body instanceof FormData || typeof body === "string") init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await app.handle(new Request(`http://phone.test${url}`, init));
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json, headers: res.headers };
  }
  const admin = (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": ADMIN }, body);

  return {
    dir,
    db: data.db,
    clock,
    call,
    admin,
    withKey: (key: string) => (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": key }, body),
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
    submit: (token: string, files: Array<{ name: string; data: Uint8Array; type?: string }>) => call("POST", "/capture/submit", {}, captureForm(token, files)),
    async close() {
      longPoll.close();
      await runtime.stop(false, 1000);
      data.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function captureForm(token: string, files: Array<{ name: string; data: Uint8Array; type?: string }>): FormData {
  const form = new FormData();
  form.append("token", token);
  for (const f of files) form.append("files", new File([f.data as BlobPart], f.name, { type: f.type ?? "application/octet-stream" }));
  return form;
}

/** A small real scan from the corpus as JPEG (longest side `side` px). */
export async function scanJpeg(name: string, side = 700): Promise<Uint8Array> {
  const src = readFileSync(path.join(CORPUS, `${name}.png`));
  return new Uint8Array(await sharp(src, { limitInputPixels: 50_000_000 }).resize(side, side, { fit: "inside" }).flatten({ background: "#fff" }).jpeg({ quality: 80 }).toBuffer());
}

/** A PDF of `pages` blank pages (pdf-lib). */
export async function blankPdf(pages: number): Promise<Uint8Array> {
  const { PDFDocument } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Page ${i + 1}`, { x: 72, y: 760, size: 24 });
  return doc.save();
}

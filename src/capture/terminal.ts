/**
 * `docproc capture` as a client of a running server: mint a capture token, show its QR code in the terminal, wait
 * for the phone, wait for processing, print what was found.
 *
 * Waiting: the pre-allocated transaction answers 404 until the phone submits, so until then the command reads the
 * token's state (GET …/capture-tokens/{id}) every `pollMs` to report the scan and to stop at expiry; after the
 * submit it long-polls GET /transactions/{id}?timeout=30 until completed or failed.
 */
import qrcodeTerminal from "qrcode-terminal";
import { DocprocError, type ErrorCode } from "../core/errors";

export interface CaptureCliOptions {
  server: string;
  tenant: string;
  project: string;
  apiKey: string;
  pageLimit?: number;
  ttlSeconds?: number;
  datasetId?: string;
  label?: string;
  /** Between token-state reads while waiting for the phone (ms). */
  pollMs?: number;
  json?: boolean;
}

export interface CaptureIo {
  out(text: string): void;
  /** Progress lines (stderr), kept out of a `--json` result. */
  note(text: string): void;
  sleep(ms: number): Promise<void>;
}

interface Reply {
  status: number;
  body: any;
}

const STATUS_CODES: Record<number, ErrorCode> = {
  400: "invalid_input",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  429: "rate_limited",
};

function client(opts: CaptureCliOptions) {
  const base = opts.server.replace(/\/+$/, "");
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { "x-api-key": opts.apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new DocprocError("invalid_input", `cannot reach ${base}: ${(err as Error).message}`, { retryable: true });
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { detail: text.slice(0, 200) };
    }
    return { status: res.status, body: parsed };
  };
}

function fail(what: string, r: Reply): never {
  const detail = (r.body as { detail?: string } | null)?.detail ?? `HTTP ${r.status}`;
  throw new DocprocError(STATUS_CODES[r.status] ?? "internal", `${what}: ${detail}`);
}

/** Runs the whole capture; resolves with the final transaction status ("completed" | "failed"). */
export async function runCapture(
  opts: CaptureCliOptions,
  io: CaptureIo,
): Promise<{ status: string; summary: CaptureSummary }> {
  const call = client(opts);
  const projectPath = `/tenants/${encodeURIComponent(opts.tenant)}/projects/${encodeURIComponent(opts.project)}`;
  const body = {
    page_limit: opts.pageLimit,
    ttl_seconds: opts.ttlSeconds,
    dataset_id: opts.datasetId,
    label: opts.label,
  };
  const minted = await call("POST", `${projectPath}/capture-tokens`, body);
  if (minted.status !== 201) fail("capture token", minted);
  const t = minted.body as {
    transaction_id: string;
    capture_url: string;
    expires_at: string;
    max_pages: number;
    ttl_seconds: number;
  };
  io.note(await terminalQr(t.capture_url));
  io.note(`${t.capture_url}\n`);
  io.note(
    `Scan the code with a phone before ${localTime(t.expires_at)}; up to ${t.max_pages} pages, ${Math.round(t.ttl_seconds / 60) || 1} min to send once opened.`,
  );
  await waitForSubmit(call, `${projectPath}/capture-tokens/${t.transaction_id}`, io, opts.pollMs ?? 2000);
  io.note("Pages received; processing…");
  const final = await waitForResult(call, t.transaction_id);
  const docs = await call("GET", `/transactions/${t.transaction_id}/documents`);
  const summary = summarize(final, docs.status === 200 ? docs.body.documents : null);
  io.out(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : renderCaptureSummary(summary));
  return { status: final.status, summary };
}

async function waitForSubmit(
  call: ReturnType<typeof client>,
  statePath: string,
  io: CaptureIo,
  pollMs: number,
): Promise<void> {
  let last = "issued";
  for (;;) {
    const r = await call("GET", statePath);
    if (r.status !== 200) fail("capture token state", r);
    const state = r.body.state as string;
    if (state === "consumed") return;
    if (state === "expired")
      throw new DocprocError(
        "timeout",
        last === "active"
          ? "The capture window ended before the pages were sent"
          : "The capture code expired before it was scanned",
      );
    if (state === "active" && last !== "active")
      io.note(`Code opened on the phone; waiting for the pages (until ${localTime(r.body.window_ends_at)})…`);
    last = state;
    await io.sleep(pollMs);
  }
}

async function waitForResult(call: ReturnType<typeof client>, id: string): Promise<Record<string, any>> {
  for (;;) {
    const r = await call("GET", `/transactions/${id}?timeout=30`);
    if (r.status !== 200) fail("transaction status", r);
    if (r.body.status === "completed" || r.body.status === "failed") return r.body;
  }
}

export function terminalQr(text: string): Promise<string> {
  return new Promise((resolve) => qrcodeTerminal.generate(text, { small: true }, resolve));
}

const localTime = (iso: string) => new Date(iso).toLocaleTimeString();

export interface CaptureSummary {
  transaction_id: string;
  status: string;
  error_message: string | null;
  processing_time_seconds: number | null;
  documents: Array<{ type: string; pages: number[]; fields: Record<string, unknown> }> | null;
}

interface DocumentLike {
  document_type: string;
  split?: { page_numbers?: number[] };
  fields?: Record<string, { value: unknown }>;
}

/** Documents with their type, pages and the fields that have a value (null when results are not readable with this key). */
export function summarize(t: Record<string, any>, documents: DocumentLike[] | null): CaptureSummary {
  return {
    transaction_id: t.transaction_id,
    status: t.status,
    error_message: t.error_message ?? null,
    processing_time_seconds: t.processing_time_seconds ?? null,
    documents:
      documents?.map((d) => ({
        type: d.document_type,
        pages: d.split?.page_numbers ?? [],
        fields: Object.fromEntries(
          Object.entries(d.fields ?? {})
            .filter(([, f]) => f.value !== null && f.value !== "" && f.value !== undefined)
            .map(([k, f]) => [k, f.value]),
        ),
      })) ?? null,
  };
}

const KEY_FIELDS_SHOWN = 8;

export function renderCaptureSummary(s: CaptureSummary): string {
  const took = s.processing_time_seconds === null ? "" : ` in ${s.processing_time_seconds.toFixed(1)} s`;
  const lines = [`Transaction ${s.transaction_id} ${s.status}${took}`];
  if (s.error_message) lines.push(`  error: ${s.error_message}`);
  if (s.documents === null) lines.push("  (this key cannot read results: it needs transaction.download_results)");
  else {
    lines.push(`  ${s.documents.length} document${s.documents.length === 1 ? "" : "s"}`);
    s.documents.forEach((d, i) => {
      const pages =
        d.pages.length === 0
          ? ""
          : d.pages.length === 1
            ? ` (page ${d.pages[0]})`
            : ` (pages ${d.pages[0]}–${d.pages[d.pages.length - 1]})`;
      lines.push(`  ${i + 1}. ${d.type}${pages}`);
      for (const [k, v] of Object.entries(d.fields).slice(0, KEY_FIELDS_SHOWN))
        lines.push(`       ${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`);
    });
  }
  return `${lines.join("\n")}\n`;
}

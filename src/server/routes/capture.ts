/**
 * Phone capture over HTTP (docs/capture.md):
 * - `POST /tenants/{t}/projects/{p}/capture-tokens` (API key with transaction.create; a task submission);
 * - `GET /tenants/{t}/projects/{p}/capture-tokens/{transaction_id}`: the token's state, for the integration;
 * - public, no credentials: `GET /capture` (the page), `POST /capture/session` (the scan), `POST /capture/submit`.
 *
 * A used or expired token answers 410 `{ detail, state }`, an unknown one 404 `{ detail, state: "unknown" }`, so
 * the page can say which.
 */
import { Elysia } from "elysia";
import { z } from "zod";
import { guardOf } from "../../auth/guard";
import { sha256Hex } from "../../auth/keys";
import type { SubmitContext } from "../../capture/submit";
import { qrSvg } from "../../capture/qr";
import { DEFAULT_CAPTURE_SETTINGS, type CaptureSettings } from "../../capture/settings";
import {
  describeCaptureToken,
  mintCaptureToken,
  openCaptureSession,
  type CaptureContext,
  type Minter,
} from "../../capture/tokens";
import { DocprocError } from "../../core/errors";
import { listUsers } from "../../storage/auth/users";
import { principalOf } from "../auth";
import { capturePageResponse } from "../capture-page/index";
import { DEFAULT_CONFIG } from "../config";
import { inFlightLimit } from "../multipart-head";
import { urlsOf, type ServerDeps } from "../deps";
import { documentRoutes, err, type RouteDoc } from "../route-doc";
import { requireProject } from "../services/projects";
import { parseInput, readJson } from "../validation";
import { publicUrlOf } from "../proxy";
import { guarded, submitRoute } from "./capture-submit";

export const CaptureTokenBody = z.object({
  dataset_id: z.enum(["production", "playground"]).default("production"),
  reviewer_id: z.string().min(1).max(200).nullable().optional(),
  page_limit: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .meta({ description: "Maximum pages processed; also the capture's max_pages" }),
  ttl_seconds: z
    .number()
    .int()
    .optional()
    .meta({ description: "Active window from the first scan; default 900, maximum 3600" }),
  label: z.string().max(500).nullable().optional(),
});

export const CaptureTokenResponse = z.object({
  token: z.string(),
  transaction_id: z.string(),
  capture_url: z.string(),
  qr_svg: z.string(),
  expires_at: z.string(),
  max_pages: z.number().int(),
  ttl_seconds: z.number().int(),
  dataset_id: z.string(),
  label: z.string().nullable(),
  status_url: z.string(),
  poll_url: z.string(),
});

const TokenBody = z.object({ token: z.string().min(1).max(500) });

function minterOf(request: Request, adminKeyHash: string): Minter {
  const p = principalOf(request);
  if (p.kind === "api_key" && p.keyId) return { kind: "api_key", keyId: p.keyId, clientId: p.clientId ?? null };
  if (p.kind === "admin") return { kind: "admin", adminKeyHash };
  throw new DocprocError(
    "forbidden",
    "Capture tokens are requested with an API key (X-API-Key): the capture acts for the key that minted it",
  );
}

function checkReviewer(deps: ServerDeps, tenantId: string, reviewer: string | null | undefined): void {
  if (!reviewer) return;
  const found = listUsers(deps.db, tenantId).find((u) => u.user_id === reviewer || u.username === reviewer);
  if (!found || found.disabled_at)
    throw new DocprocError(
      "invalid_input",
      `reviewer_id: no active user ${JSON.stringify(reviewer)} in tenant ${tenantId}`,
    );
}

export function captureRoutes(deps: ServerDeps, settings: CaptureSettings = deps.capture ?? DEFAULT_CAPTURE_SETTINGS) {
  const ctx: CaptureContext = { db: deps.db, clock: deps.clock, settings };
  const adminKeyHash = sha256Hex(deps.config.adminApiKey);
  const submitContext = (): SubmitContext => {
    const guard = guardOf(deps.db);
    if (!guard) throw new DocprocError("internal", "capture: no access guard for this database");
    const { maxQueueDepth, maxFileBytes, maxFilesPerUpload } = deps.config;
    return {
      ...ctx,
      blobs: deps.blobs,
      guard,
      adminKeyHash,
      maxQueueDepth,
      maxFileBytes,
      maxFiles: maxFilesPerUpload,
      wake: deps.wake,
    };
  };
  const base = "/tenants/:tenant_id/projects/:project_id/capture-tokens";
  // Public uploads held in memory at once, whatever their tokens: a bound on what visitors without a key can cost.
  const uploads = inFlightLimit(deps.config.maxPublicUploads ?? DEFAULT_CONFIG.maxPublicUploads, "capture uploads");
  return new Elysia({ name: "capture" })
    .post(
      base,
      async ({ params, request, set }) => {
        const body = parseInput(CaptureTokenBody, await readJson(request));
        requireProject(deps.db, params.tenant_id, params.project_id);
        checkReviewer(deps, params.tenant_id, body.reviewer_id);
        const minted = mintCaptureToken(
          ctx,
          minterOf(request, adminKeyHash),
          params.tenant_id,
          params.project_id,
          body,
        );
        // DOCPROC_PUBLIC_URL wins; else how the client reached us (behind a trusted proxy: its scheme, host, prefix).
        const origin = settings.publicUrl ?? publicUrlOf(request, "");
        const capture_url = `${origin}/capture#${minted.token}`;
        const { status_url, poll_url } = urlsOf(minted.transaction_id);
        set.status = 201;
        return { ...minted, capture_url, qr_svg: await qrSvg(capture_url), status_url, poll_url };
      },
      { parse: "none" },
    )
    .get(`${base}/:transaction_id`, ({ params }) =>
      describeCaptureToken(ctx, params.tenant_id, params.project_id, params.transaction_id),
    )
    .get("/capture", () => capturePageResponse())
    .post(
      "/capture/session",
      async ({ request }) =>
        guarded(async () => openCaptureSession(ctx, parseInput(TokenBody, await readJson(request)).token)),
      { parse: "none" },
    )
    .post("/capture/submit", async ({ request }) => submitRoute(request, { deps, ctx, submitContext, uploads }), {
      parse: "none",
    });
}

const stateErr = (description: string) => ({
  description,
  schema: z.object({ detail: z.string(), state: z.string() }),
});

export const CAPTURE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects/{project_id}/capture-tokens",
    summary: "Request a capture token (QR code for phone capture)",
    tag: "Capture",
    body: CaptureTokenBody,
    responses: {
      201: { description: "Capture token", schema: CaptureTokenResponse },
      400: err("Invalid fields (ttl_seconds above 3600, unknown reviewer)"),
      401: err("Missing or invalid credentials"),
      403: err("Missing transaction.create, or not an API key"),
      404: err("Unknown tenant or project"),
      429: err("Task submission limit"),
    },
  },
  {
    method: "get",
    path: "/tenants/{tenant_id}/projects/{project_id}/capture-tokens/{transaction_id}",
    summary: "State of a capture token: issued, active, consumed or expired (extension)",
    tag: "Capture",
    responses: {
      200: { description: "Token state (never the token)" },
      401: err("Missing or invalid credentials"),
      404: err("Unknown capture token"),
    },
  },
  {
    method: "get",
    path: "/capture",
    summary: "The phone capture page (HTML; the token is in the URL fragment)",
    tag: "Capture",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "post",
    path: "/capture/session",
    summary: "Report a scan: issued → active (body: token)",
    tag: "Capture",
    public: true,
    body: TokenBody,
    responses: {
      200: { description: "Active session: transaction_id, max_pages, expires_at, seconds_left, expires_in_ms" },
      404: stateErr("Unknown capture code"),
      410: stateErr("Code already used or expired"),
    },
  },
  {
    method: "post",
    path: "/capture/submit",
    summary:
      "Submit the captured pages as multipart/form-data (`token`, repeated `files`; optional X-Capture-Token header); starts processing",
    tag: "Capture",
    public: true,
    responses: {
      200: { description: "transaction_id, status (processing), file_count, page_count" },
      400: err(
        "No files or no token (the token goes in X-Capture-Token or the first multipart field; after the files it is deprecated, with Deprecation and Sunset headers)",
      ),
      403: err("The minting key was revoked"),
      404: stateErr("Unknown capture code"),
      409: stateErr("Code not opened yet"),
      410: stateErr("Code already used or expired"),
      413: err("More pages than max_pages, or files too large"),
      415: err("Not a PDF or an image"),
      422: err("Unreadable or password-protected file"),
      429: err("Task submission limit of the minting key, or too many capture uploads at once (Retry-After)"),
    },
  },
];
documentRoutes(CAPTURE_ROUTE_DOCS);

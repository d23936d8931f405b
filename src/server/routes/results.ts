/**
 * Results: the export manifest, export file downloads, and the documents list.
 * A download MUST name a file the manifest lists (so no path can escape the transaction's export folder), and is
 * streamed from the blob store (`exports/<transaction_id>/<filename>`, the data directory's export folder or S3):
 * any `serve` answers for any transaction, and a large file is never read into memory whole.
 */
import { Elysia } from "elysia";
import { DocprocError } from "../../core/errors";
import { listDocuments } from "../../storage/transactions/documents";
import { emptyManifest, findExportFile, getManifest } from "../../storage/files/export-files";
import { exportsKeyOf } from "../../storage/files/store-sink";
import { contentDisposition, contentTypeOf } from "../content-types";
import type { ServerDeps } from "../deps";
import { requireTransaction } from "../services/transactions";
import { queryBool } from "../validation";
import { z } from "zod";
import { common, notFound, q, documentRoutes, type RouteDoc } from "../route-doc";
import { DocumentsResponse, ManifestSchema } from "../schemas-responses";

/** Export files up to this size are sent with a Content-Length; larger ones stream chunked (see the download route). */
export const BUFFERED_DOWNLOAD_BYTES = 8 * 1024 * 1024;

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new DocprocError("invalid_input", "filename: malformed percent-encoding");
  }
}

export function resultRoutes(deps: ServerDeps) {
  return new Elysia({ name: "results" })
    .get("/transactions/:transaction_id/exports", ({ params }) => {
      const t = requireTransaction(deps, params.transaction_id);
      return getManifest(deps.db, t.transaction_id) ?? emptyManifest(t.transaction_id);
    })
    .get("/transactions/:transaction_id/exports/download/*", async ({ params, query }) => {
      const t = requireTransaction(deps, params.transaction_id);
      const filename = decodePath(params["*"] ?? "");
      const inline = queryBool(query.inline, "inline");
      const entry = filename ? findExportFile(deps.db, t.transaction_id, filename) : null;
      if (!entry)
        throw new DocprocError(
          "not_found",
          `Export file ${JSON.stringify(filename)} not found for transaction ${t.transaction_id}`,
        );
      const file = await deps.blobs.open(`${exportsKeyOf(t.transaction_id)}/${entry.filename}`).catch((err) => {
        // A name the store refuses (`..`, absolute) cannot be one of this transaction's files.
        if (err instanceof DocprocError && err.code === "invalid_input") return null;
        throw err;
      });
      if (!file) throw new DocprocError("not_found", `Export file ${JSON.stringify(filename)} is missing from storage`);
      // Bun sends a stream chunked (no Content-Length): files up to BUFFERED_DOWNLOAD_BYTES are read whole so the
      // client knows the size; larger ones stream from the store without being held in memory.
      const body = file.localFile ?? (file.size <= BUFFERED_DOWNLOAD_BYTES ? await file.bytes() : file.stream());
      return new Response(body as BodyInit, {
        headers: {
          "content-type": contentTypeOf(entry.filename),
          "content-disposition": contentDisposition(inline ? "inline" : "attachment", entry.filename),
          ...(body instanceof ReadableStream ? {} : { "content-length": String(file.size) }),
          "x-content-type-options": "nosniff",
        },
      });
    })
    .get("/transactions/:transaction_id/documents", ({ params }) => {
      const t = requireTransaction(deps, params.transaction_id);
      return {
        transaction_id: t.transaction_id,
        status: t.status,
        documents: listDocuments(deps.db, t.transaction_id),
      };
    });
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const RESULT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/transactions/{transaction_id}/exports",
    summary: "Export manifest",
    tag: "Results",
    responses: { 200: { description: "Manifest", schema: ManifestSchema }, ...common, ...notFound },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/exports/download/{filename}",
    summary: "Download an export file (filename may contain subfolders)",
    tag: "Results",
    query: z.object({ inline: q.boolean("true: Content-Disposition inline; default attachment") }),
    responses: {
      200: { description: "File bytes; Content-Type by extension", content: "application/octet-stream" },
      ...common,
      ...notFound,
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/documents",
    summary: "Documents with classification and fields (as in the results file)",
    tag: "Results",
    responses: { 200: { description: "Documents", schema: DocumentsResponse }, ...common, ...notFound },
  },
];
documentRoutes(RESULT_ROUTE_DOCS);

/**
 * Results: the export manifest, export file downloads, and the documents list.
 * A download MUST name a file the manifest lists (so no path can escape the transaction's export folder).
 */
import { Elysia } from "elysia";
import path from "node:path";
import { DocprocError } from "../../core/errors";
import { listDocuments } from "../../storage/documents";
import { emptyManifest, findExportFile, getManifest } from "../../storage/export-files";
import { exportDirOf } from "../../queue/process-transaction";
import { contentDisposition, contentTypeOf } from "../content-types";
import type { ServerDeps } from "../deps";
import { requireTransaction } from "../services/transactions";
import { queryBool } from "../validation";

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
      if (!entry) throw new DocprocError("not_found", `Export file ${JSON.stringify(filename)} not found for transaction ${t.transaction_id}`);
      const root = exportDirOf(deps.exportsRoot, t.transaction_id);
      const full = path.resolve(root, entry.filename);
      if (!full.startsWith(path.resolve(root) + path.sep)) throw new DocprocError("not_found", "Export file not found");
      const file = Bun.file(full);
      if (!(await file.exists())) throw new DocprocError("not_found", `Export file ${JSON.stringify(filename)} is missing from storage`);
      return new Response(file, {
        headers: {
          "content-type": contentTypeOf(entry.filename),
          "content-disposition": contentDisposition(inline ? "inline" : "attachment", entry.filename),
          "content-length": String(file.size),
          "x-content-type-options": "nosniff",
        },
      });
    })
    .get("/transactions/:transaction_id/documents", ({ params }) => {
      const t = requireTransaction(deps, params.transaction_id);
      return { transaction_id: t.transaction_id, status: t.status, documents: listDocuments(deps.db, t.transaction_id) };
    });
}

/**
 * Export files written into the blob store (`exports/<transaction_id>/<path>`), for a store that is not the data
 * directory (the data directory keeps the exporters' folder sink, with its symlink checks). Same contract as
 * `ExportSink`: every path stays under the transaction's prefix (the store's `checkKey` refuses `..`, absolute
 * paths and NUL), and each file is written whole.
 */
import { DocprocError } from "../../core/errors";
import { wholeData, type ExportSink } from "../../core/exporters/sink";
import { toBytes, type BlobStore } from "./blobs";
import { openBlobStore, type StorageConfig } from "./storage-config";

export function exportsKeyOf(transactionId: string): string {
  return `exports/${transactionId}`;
}

export function storeSink(store: BlobStore, transactionId: string): ExportSink {
  const prefix = exportsKeyOf(transactionId);
  return {
    async write(relPath, data) {
      const bytes = toBytes(wholeData(data));
      try {
        await store.write(`${prefix}/${relPath}`, bytes);
      } catch (err) {
        if (err instanceof DocprocError && err.code === "invalid_input") {
          throw new DocprocError("export_failed", `refusing export path ${JSON.stringify(relPath)}`, {
            stage: "export",
            cause: err,
          });
        }
        throw err;
      }
      return { size_bytes: bytes.byteLength };
    },
  };
}

/**
 * The export sink of a transaction for a store given by its config (the pipeline thread opens its own store):
 * null for the data directory, whose caller writes into the folder as before.
 */
export function exportSinkFor(config: StorageConfig, transactionId: string): ExportSink | null {
  return config.kind === "fs" ? null : storeSink(openBlobStore(config), transactionId);
}

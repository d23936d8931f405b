/** The database side of one mail import (importer.ts): everything an imported message becomes, in one commit. */
import { randomUUID } from "node:crypto";
import { isoAt, type Clock } from "../core/clock";
import { DocprocError } from "../core/errors";
import { submitTransaction } from "../queue/submit";
import type { Db } from "../storage/schema/db";
import type { MailConnectorRecord } from "../storage/mail/mail-connectors";
import * as ledger from "../storage/mail/mail-messages";
import { addSourceFile } from "../storage/files/source-files";
import * as tx from "../storage/transactions/transactions";
import type { ParsedMail } from "./message";
import type { ConnectionSettings } from "./settings";

/**
 * The import's one write transaction, fenced by the claim token: the transaction, its source files, its queue job
 * and the ledger's `imported` row, or (a Message-ID or content hash imported before) a duplicate row pointing at the
 * earlier transaction. Throws `conflict` when the claim was taken over.
 */
export function commitImport(
  ctx: { db: Db; clock: Clock; maxQueueDepth: number },
  c: MailConnectorRecord,
  s: ConnectionSettings,
  key: ledger.MessageKey,
  token: string,
  p: ParsedMail,
  hashes: string[],
) {
  const { db } = ctx;
  const now = isoAt(ctx.clock);
  const f = p.facts;
  const fields = { message_key: f.message_key, message_id: f.message_id, subject: f.subject, from_address: f.from };
  return db
    .transaction(() => {
      const earlier = ledger.importedByKey(db, c.connector_id, f.message_key);
      if (earlier) {
        if (
          !ledger.recordImported(
            db,
            key,
            token,
            { ...fields, transaction_id: earlier.transaction_id, duplicate: true },
            now,
          )
        )
          throw lostLease();
        return { transaction_id: earlier.transaction_id, duplicate: true };
      }
      const id = randomUUID();
      tx.createTransaction(db, {
        transaction_id: id,
        tenant_id: c.tenant_id,
        project_id: c.project_id,
        correlation_id: f.message_id,
        metadata: {
          from: f.from,
          ...(f.from_name ? { from_name: f.from_name } : {}),
          subject: f.subject,
          date: f.date,
        },
        dataset_id: "production",
        source: "mail",
        request: {
          mail: {
            connector_id: c.connector_id,
            folder: s.folder,
            uid_validity: key.uid_validity,
            uid: key.uid,
            message_id: f.message_id,
          },
          source_files: p.sources.map((src) => ({
            filename: src.filename,
            split_policy: src.split_policy,
            size: src.data.byteLength,
          })),
        },
        now,
      });
      p.sources.forEach((src, i) =>
        addSourceFile(db, {
          transaction_id: id,
          filename: src.filename,
          content_type: src.content_type ?? "application/octet-stream",
          size: src.data.byteLength,
          blob_hash: hashes[i]!,
          split_policy: src.split_policy,
          now,
        }),
      );
      submitTransaction(db, ctx.clock, id, { maxDepth: ctx.maxQueueDepth });
      if (!ledger.recordImported(db, key, token, { ...fields, transaction_id: id, duplicate: false }, now))
        throw lostLease();
      return { transaction_id: id, duplicate: false };
    })
    .immediate();
}

const lostLease = () => new DocprocError("conflict", "the claim on this message was taken over by another process");

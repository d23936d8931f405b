/** Messages between a PostgreSQL `Db` (connection.ts) and its connection thread (thread.ts). */
export interface BridgeRequest {
  /** query: rows back; exec: a script, nothing back; close: end the connection. */
  op: "query" | "exec" | "close";
  sql: string;
  params: unknown[];
}

export type BridgeReply =
  /** command: the command tag of the (last) statement, e.g. "COMMIT", or "ROLLBACK" for a COMMIT PostgreSQL refused. */
  | { ok: true; rows: Record<string, unknown>[]; count: number; command: string }
  | { ok: false; message: string; code: string; detail?: string };

/** Messages between a PostgreSQL `Db` (connection.ts) and its connection thread (thread.ts). */
export interface BridgeRequest {
  /** query: rows back; exec: a script, nothing back; close: end the connection. */
  op: "query" | "exec" | "close";
  sql: string;
  params: unknown[];
}

export type BridgeReply =
  | { ok: true; rows: Record<string, unknown>[]; count: number }
  | { ok: false; message: string; code: string; detail?: string };

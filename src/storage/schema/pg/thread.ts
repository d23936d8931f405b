/**
 * The PostgreSQL connection thread (see connection.ts): owns one Bun.SQL connection and runs the statements the
 * owning thread sends, one at a time, in order. After each reply it raises the shared flag the caller sleeps on.
 *
 * Values cross as structured clones: int8 columns arrive as BigInt (`bigint: true`) and leave as numbers when they
 * are safe integers (SQLite gives numbers; docproc's int8 columns hold epoch milliseconds and counts), booleans
 * bound as parameters become 0/1 (docproc stores flags as integers on both engines), NUL in text becomes U+FFFD.
 */
import { SQL } from "bun";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import type { BridgeReply, BridgeRequest } from "./protocol";

const { url, schema, flag: flagBuffer } = workerData as { url: string; schema: string | null; flag: SharedArrayBuffer };
const flag = new Int32Array(flagBuffer);
const sql = new SQL(url, { max: 1, bigint: true, idleTimeout: 0, connectionTimeout: 10 });
let ready: Promise<unknown> | null = schema ? sql.unsafe(`SET search_path TO "${schema.replaceAll('"', '""')}"`) : null;

function toNumber(v: unknown): unknown {
  if (typeof v === "bigint")
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  return v;
}

function rowOut(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) {
    const v = row[k];
    if (typeof v === "bigint") row[k] = toNumber(v);
    else if (v instanceof Uint8Array) row[k] = new Uint8Array(v);
  }
  return row;
}

// PostgreSQL text cannot hold NUL: it becomes U+FFFD (a lookup by such a value then finds nothing, as it should).
const paramIn = (v: unknown) =>
  typeof v === "boolean"
    ? v
      ? 1
      : 0
    : v === undefined
      ? null
      : typeof v === "string" && v.includes("\u0000")
        ? v.replaceAll("\u0000", "\uFFFD")
        : v;

async function run(req: BridgeRequest): Promise<BridgeReply> {
  try {
    if (ready) {
      await ready;
      ready = null;
    }
    if (req.op === "close") {
      await sql.close({ timeout: 1 });
      return { ok: true, rows: [], count: 0, command: "" };
    }
    const result = req.params.length ? await sql.unsafe(req.sql, req.params.map(paramIn)) : await sql.unsafe(req.sql);
    // A multi-statement simple query answers an array of results: the last one is the statement's answer.
    const last = Array.isArray(result[0]) && req.op === "exec" ? (result.at(-1) as unknown as typeof result) : result;
    const rows = req.op === "exec" ? [] : [...last].map((r) => rowOut(r as Record<string, unknown>));
    return {
      ok: true,
      rows,
      count: Number(last.count ?? rows.length),
      command: String((last as { command?: string }).command ?? ""),
    };
  } catch (e) {
    const err = e as Error & { errno?: string; code?: string; detail?: string };
    return { ok: false, message: err.message, code: err.errno ?? err.code ?? "", detail: err.detail };
  }
}

// Replies go through the port the owner hands over first; it reads them synchronously (receiveMessageOnPort).
let replies: MessagePort | null = null;
parentPort!.on("message", async (msg: BridgeRequest | { op: "port"; port: MessagePort }) => {
  if (msg.op === "port") {
    replies = msg.port;
    return;
  }
  const reply = await run(msg);
  replies!.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});

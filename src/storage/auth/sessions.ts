/**
 * Sessions of signed-in users. The token is stored as its SHA-256 digest only. Times are epoch milliseconds.
 * `findLiveSession` reads the database on every call, so logout is effective on the next request.
 */
import { json, type Db } from "../schema/db";

export interface SessionRecord {
  session_id: string;
  user_id: string;
  tenant_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  ended_at: number | null;
}

export interface LiveSession extends SessionRecord {
  username: string;
  permissions: string[];
}

export function insertSession(db: Db, s: Omit<SessionRecord, "ended_at"> & { token_hash: string }): void {
  db.query(
    "INSERT INTO sessions (token_hash, session_id, user_id, tenant_id, created_at, expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(s.token_hash, s.session_id, s.user_id, s.tenant_id, s.created_at, s.expires_at, s.last_seen_at);
}

/**
 * The session with this token digest unless it was ended or its user disabled (expiry is the caller's check).
 * Two primary-key reads rather than a join: cheaper per request.
 */
export function findLiveSession(db: Db, tokenHash: string): LiveSession | null {
  const s = db
    .query<SessionRecord, [string]>(
      "SELECT session_id, user_id, tenant_id, created_at, expires_at, last_seen_at, ended_at FROM sessions WHERE token_hash = ? AND ended_at IS NULL",
    )
    .get(tokenHash);
  if (!s) return null;
  const u = db
    .query<{ username: string; permissions: string }, [string]>(
      "SELECT username, permissions FROM users WHERE user_id = ? AND disabled_at IS NULL",
    )
    .get(s.user_id);
  return u ? { ...s, username: u.username, permissions: json<string[]>(u.permissions, []) } : null;
}

export function touchSession(db: Db, sessionId: string, now: number): void {
  db.query("UPDATE sessions SET last_seen_at = ? WHERE session_id = ?").run(now, sessionId);
}

/** Ends the session; false when it was already ended or unknown. */
export function endSession(db: Db, sessionId: string, now: number): boolean {
  return (
    db.query("UPDATE sessions SET ended_at = ? WHERE session_id = ? AND ended_at IS NULL").run(now, sessionId).changes >
    0
  );
}

/** Deletes sessions that ended or expired before `before` (housekeeping). */
export function purgeSessions(db: Db, before: number): number {
  return db
    .query("DELETE FROM sessions WHERE (ended_at IS NOT NULL AND ended_at < ?) OR expires_at < ?")
    .run(before, before).changes;
}

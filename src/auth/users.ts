/** User administration (CLI and admin endpoints). Passwords are hashed with argon2id (Bun.password). */
import { DocprocError } from "../core/errors";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { DEFAULT_TENANT } from "../storage/auth/tenants";
import { findUserForLogin, insertUser, listUsers, type UserRecord } from "../storage/auth/users";
import { newId } from "./keys";
import { DEFAULT_USER_PERMISSIONS, parsePermissions } from "./permissions";
import { checkId, requireTenant } from "./tenants";

export const MIN_PASSWORD_LENGTH = 10;

export async function createUser(
  db: Db,
  clock: Clock,
  input: { tenant_id?: unknown; username?: unknown; password?: unknown; permissions?: unknown },
): Promise<UserRecord> {
  const tenantId = input.tenant_id === undefined ? DEFAULT_TENANT : checkId(input.tenant_id, "tenant_id");
  const username = checkId(input.username, "username");
  if (
    typeof input.password !== "string" ||
    input.password.length < MIN_PASSWORD_LENGTH ||
    input.password.length > 1024
  ) {
    throw new DocprocError("invalid_input", `password: at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const perms = input.permissions;
  if (perms !== undefined && (!Array.isArray(perms) || perms.some((x) => typeof x !== "string")))
    throw new DocprocError("invalid_input", "permissions: an array of permission names");
  const permissions = perms === undefined ? DEFAULT_USER_PERMISSIONS : parsePermissions(perms as string[]);
  requireTenant(db, tenantId);
  if (findUserForLogin(db, tenantId, username))
    throw new DocprocError("conflict", `User ${username} already exists in tenant ${tenantId}`);
  const password_hash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
  try {
    return insertUser(db, {
      user_id: newId("user_"),
      tenant_id: tenantId,
      username,
      password_hash,
      permissions,
      created_at: isoAt(clock),
    });
  } catch (err) {
    // Another request created the same user while the password was being hashed.
    if (/UNIQUE/.test(String(err)))
      throw new DocprocError("conflict", `User ${username} already exists in tenant ${tenantId}`);
    throw err;
  }
}

export { listUsers };

/** Tenant administration: the `default` tenant always exists; the admin (HTTP or CLI) creates more. */
import { DocprocError } from "../core/errors";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { getTenant, insertTenant, listTenants, type TenantRow } from "../storage/auth/tenants";

/** Tenant, client and user identifiers: letters, digits, `.`, `_`, `-`; 1–64 characters, starting alphanumeric. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkId(value: unknown, field: string): string {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) {
    throw new DocprocError(
      "invalid_input",
      `${field}: 1-64 characters of letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return value;
}

export function createTenant(db: Db, clock: Clock, input: { tenant_id?: unknown; name?: unknown }): TenantRow {
  const id = checkId(input.tenant_id, "tenant_id");
  if (
    input.name !== undefined &&
    (typeof input.name !== "string" || input.name.trim() === "" || input.name.length > 200)
  ) {
    throw new DocprocError("invalid_input", "name: a non-empty string of at most 200 characters");
  }
  if (getTenant(db, id)) throw new DocprocError("conflict", `Tenant ${id} already exists`);
  insertTenant(db, { tenant_id: id, name: (input.name as string | undefined)?.trim() || id, created_at: isoAt(clock) });
  return getTenant(db, id)!;
}

export function requireTenant(db: Db, tenantId: string): TenantRow {
  const t = getTenant(db, tenantId);
  if (!t) throw new DocprocError("not_found", `Tenant ${tenantId} not found`);
  return t;
}

export { listTenants };

/** Tenants: a `default` tenant always exists (created by the first migration). */
import type { Db } from "../schema/db";

export interface TenantRow {
  tenant_id: string;
  name: string;
  created_at: string;
}

export const DEFAULT_TENANT = "default";

export function getTenant(db: Db, tenantId: string): TenantRow | null {
  return db.query<TenantRow, [string]>("SELECT * FROM tenants WHERE tenant_id = ?").get(tenantId) ?? null;
}

/** Inserts a new tenant (the caller checked it does not exist). */
export function insertTenant(db: Db, row: TenantRow): void {
  db.query("INSERT INTO tenants (tenant_id, name, created_at) VALUES (?, ?, ?)").run(
    row.tenant_id,
    row.name,
    row.created_at,
  );
}

/** Creates the tenant when missing; returns it either way. */
export function ensureTenant(db: Db, tenantId: string, now: string, name = tenantId): TenantRow {
  db.query("INSERT INTO tenants (tenant_id, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").run(
    tenantId,
    name,
    now,
  );
  return getTenant(db, tenantId)!;
}

export function listTenants(db: Db): TenantRow[] {
  return db.query<TenantRow, []>("SELECT * FROM tenants ORDER BY created_at, tenant_id").all();
}

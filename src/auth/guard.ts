/**
 * The access decision for one request: who is calling (principal.ts), whether the path is theirs (tenant scope),
 * whether they hold the permission (permissions.ts), and whether their rate limits have room (rate-limit.ts, the one home of rate limiting).
 * No HTTP types: the server adapter passes method, path and a header getter, and renders the outcome.
 *
 * Order: authenticate (401) → admin-only paths (403) → rate limits (429, counted before anything else can fail)
 * → tenant scope (404, worded like a missing resource so other tenants' ids are never confirmed)
 * → permission (403 naming it) → step permissions for work submissions (403 naming it).
 */
import { DocprocError } from "../core/errors";
import { stepEnabled } from "../core/workflow";
import type { ProjectSettings } from "../core/project";
import type { Clock } from "../core/clock";
import { readSnapshot, type Db } from "../storage/schema/db";
import { getProject, getProjectById, type ProjectRecord } from "../storage/projects/projects";
import { transactionOwner } from "../storage/transactions/transactions";
import { sha256Hex } from "./keys";
import { accessRuleOf, STEP_PERMISSIONS, type AccessRule } from "./permissions";
import { principalOfKeyId, resolvePrincipal, type Principal, type PrincipalContext } from "./principal";
import {
  countOrRefuse,
  createRateLimiter,
  windowsOf,
  ASYNC_WINDOW,
  type Decision,
  type RateLimiter,
} from "./rate-limit";
import type { AuthSettings } from "./settings";

export interface RequestFacts {
  method: string;
  pathname: string;
  header(name: string): string | null;
}

export interface Access {
  principal: Principal;
  /** The rate-limit outcome to report in headers; null for the admin. */
  rate: Decision | null;
}

export interface Guard {
  /** `onCounted` receives the rate-limit outcome as soon as the request is counted, before later checks may throw. */
  check(req: RequestFacts, onCounted?: (rate: Decision) => void): Access;
  /**
   * Counts one task submission made on behalf of `principal` without credentials on the request (the phone
   * capture page submits for the key that minted its token). Throws the async 429 when the budget is spent.
   * Admin principals are not limited (null).
   */
  chargeSubmission(principal: Principal): Decision | null;
  /** The principal of a key that is still active, by key id; null once revoked (re-read on every call). */
  principalOfKeyId(keyId: string): Principal | null;
  limiter: RateLimiter;
  settings: AuthSettings;
  close(): void;
}

export function createGuard(opts: { db: Db; clock: Clock; adminApiKey: string; settings: AuthSettings }): Guard {
  const { db, settings } = opts;
  const limiter = createRateLimiter({ db, clock: opts.clock });
  const ctx: PrincipalContext = { db, clock: opts.clock, settings, adminKeyHash: sha256Hex(opts.adminApiKey) };

  function check(req: RequestFacts, onCounted?: (rate: Decision) => void): Access {
    const facts = lookUp(req);
    const { principal } = facts;
    // The admin may do anything, unlimited: no rule to look up (this is the hot path of integrations using it).
    if (facts.rule === null) return { principal, rate: null };
    const rule = facts.rule;
    if (rule.kind === "admin")
      throw new DocprocError(
        "forbidden",
        "Admin endpoints need the admin key (ADMIN_API_KEY) in X-Admin-Key or X-API-Key",
      );
    // Starting a playground transaction is a try-out: it never counts toward the async (submission) budget.
    const rate = countOrRefuse(
      limiter,
      principal.rateSubject!,
      windowsOf(principal.limits, !!rule.submitsWork && facts.owner?.dataset_id !== "playground"),
    );
    onCounted?.(rate);
    checkScope(principal, rule, facts.owner?.tenant_id ?? null);
    if (rule.permission && !principal.permissions.has(rule.permission)) {
      throw new DocprocError("forbidden", `Missing permission: ${rule.permission}`);
    }
    if (rule.submitsWork) checkStepPermissions(principal, facts.project);
    return { principal, rate };
  }

  /**
   * Every database read of a decision (key and client, the transaction's owner, the project of a submission), in
   * one read snapshot for API keys: a third cheaper than three separate reads. Sessions are read on their own
   * because resolving one may write (its last-seen time), and nothing here may write inside the snapshot.
   */
  function lookUp(req: RequestFacts): {
    principal: Principal;
    rule: AccessRule | null;
    owner: Owner | null;
    project: ProjectRecord | null;
  } {
    const read = () => {
      const principal = resolvePrincipal(ctx, req.header);
      if (principal.kind === "admin") return { principal, rule: null, owner: null, project: null };
      const rule = accessRuleOf(req.method, req.pathname);
      const owner = rule.transactionId ? transactionOwner(db, rule.transactionId) : null;
      const project = rule.submitsWork ? submissionProject(db, rule, owner?.project_id ?? null) : null;
      return { principal, rule, owner, project };
    };
    return req.header("x-api-key") !== null && req.header("x-admin-key") === null ? readSnapshot(db, read) : read();
  }

  const guard: Guard = {
    check,
    chargeSubmission: (p) =>
      p.rateSubject === null
        ? null
        : countOrRefuse(
            limiter,
            p.rateSubject,
            windowsOf(p.limits, true).filter((w) => w.name === ASYNC_WINDOW),
          ),
    principalOfKeyId: (keyId) => principalOfKeyId(db, settings, keyId),
    limiter,
    settings,
    close: () => limiter.close(),
  };
  GUARDS.set(db, guard);
  return guard;
}

const GUARDS = new WeakMap<Db, Guard>();

/** The guard of the app serving this database, for routes built without it (e.g. capture). */
export function guardOf(db: Db): Guard | undefined {
  return GUARDS.get(db);
}

/** Another tenant's resources answer exactly as missing ones do. */
function checkScope(p: Principal, rule: AccessRule, txTenant: string | null): void {
  if (p.tenantId === null) return;
  if (rule.tenantId !== undefined && rule.tenantId !== p.tenantId) {
    throw new DocprocError(
      "not_found",
      rule.projectId !== undefined
        ? `Project ${rule.projectId} not found in tenant ${rule.tenantId}`
        : `Tenant ${rule.tenantId} not found`,
    );
  }
  if (rule.transactionId !== undefined && txTenant !== null && txTenant !== p.tenantId) {
    throw new DocprocError("not_found", `Transaction ${rule.transactionId} not found`);
  }
}

type Owner = { tenant_id: string; project_id: string; dataset_id?: string };

/** The project a submission runs in: named in the path, or the transaction's. */
function submissionProject(db: Db, rule: AccessRule, txProject: string | null): ProjectRecord | null {
  return rule.projectId !== undefined && rule.tenantId !== undefined
    ? getProject(db, rule.tenantId, rule.projectId)
    : txProject
      ? getProjectById(db, txProject)
      : null;
}

/** Submitting work runs the project's workflow: each enabled split/classify/extract step needs its permission. */
function checkStepPermissions(p: Principal, project: ProjectRecord | null): void {
  if (!project) return; // the route answers 404
  const raw = (project.settings ?? {}) as Partial<ProjectSettings>;
  const settings = { workflow: Array.isArray(raw.workflow) ? raw.workflow : [] } as ProjectSettings;
  for (const step of STEP_PERMISSIONS) {
    if (stepEnabled(settings, step) && !p.permissions.has(step)) {
      throw new DocprocError(
        "forbidden",
        `Missing permission: ${step} (the workflow of project ${project.project_id} runs the ${step} step)`,
      );
    }
  }
}

/**
 * Permission names and what each allows. A client (API key) or user (session) holds a list of them; the admin key
 * holds all. docs/auth.md is the reference for users; ROUTE_RULES below is the enforcement.
 */
import { DocprocError } from "../core/errors";

export const PERMISSIONS = {
  "transaction.create":
    "create and submit transactions: create, one-step process, upload source files, start, rerun, capture tokens, webhook redelivery",
  "transaction.read":
    "read transactions: status (with long poll), list, batch status, source file list, webhook delivery log",
  "transaction.download_results": "results: export manifest, export file download, documents, page images/OCR",
  "transaction.review":
    "human review: read a transaction's documents with boxes, words and page images, correct and confirm them, finish the review",
  "project.manage": "create and update projects and their settings",
  split: "submit work to a project whose workflow runs the Split step",
  classify: "submit work to a project whose workflow runs the Classify step",
  extract: "submit work to a project whose workflow runs the Extract step",
} as const;

export type Permission = keyof typeof PERMISSIONS;
export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

/**
 * Given to a client (an integration) created without a permission list. A fixed list, never derived from
 * PERMISSIONS: a permission added later (transaction.review came in wave 2) MUST NOT widen what a client created
 * the way it always was gets (docs/api-stability.md). New permissions are opt-in for clients. The list is stored
 * with the client at creation, so an existing client keeps exactly what it was given.
 */
export const DEFAULT_CLIENT_PERMISSIONS: Permission[] = [
  "transaction.create",
  "transaction.read",
  "transaction.download_results",
  "split",
  "classify",
  "extract",
];

/**
 * Given to a user (a person signing in, mostly to review) created without a list: the client default plus
 * transaction.review, as since wave 2. Fixed too: later permissions are opt-in.
 */
export const DEFAULT_USER_PERMISSIONS: Permission[] = [
  "transaction.create",
  "transaction.read",
  "transaction.download_results",
  "transaction.review",
  "split",
  "classify",
  "extract",
];

/** The workflow steps gated by a permission of the same name. */
export const STEP_PERMISSIONS = ["split", "classify", "extract"] as const satisfies readonly Permission[];

export function isPermission(name: string): name is Permission {
  return Object.hasOwn(PERMISSIONS, name);
}

/** Validates a permission list (deduplicated, in the canonical order); unknown names are a 400 listing the allowed ones. */
export function parsePermissions(names: readonly string[]): Permission[] {
  const unknown = names.filter((n) => !isPermission(n));
  if (unknown.length) {
    throw new DocprocError(
      "invalid_input",
      `permissions: unknown ${unknown.map((n) => JSON.stringify(n)).join(", ")}; allowed: ${ALL_PERMISSIONS.join(", ")}`,
    );
  }
  return ALL_PERMISSIONS.filter((p) => names.includes(p));
}

/** What a request needs, derived from its method and path alone. */
export interface AccessRule {
  /** `admin`: admin key only, never rate limited. `authenticated`: any principal. */
  kind: "admin" | "authenticated";
  permission?: Permission;
  /** Creates processing work: counted against the async (task submission) limit; step permissions apply. */
  submitsWork?: boolean;
  /** Scope the path names: the caller's tenant must own it, or the answer is 404. */
  tenantId?: string;
  projectId?: string;
  transactionId?: string;
}

type Matcher = { method: string; re: RegExp; permission?: Permission; submitsWork?: boolean };

const T = "/tenants/(?<tenant>[^/]+)";
const P = `${T}/projects/(?<project>[^/]+)`;
const X = "/transactions/(?<tx>(?!batch-status$)[^/]+)";

/** First match wins. Paths not listed need authentication only (and answer 404 when no route exists). */
const ROUTE_RULES: Matcher[] = [
  {
    method: "POST",
    re: new RegExp(`^${P}/transactions/process/?$`),
    permission: "transaction.create",
    submitsWork: true,
  },
  { method: "POST", re: new RegExp(`^${P}/transactions/?$`), permission: "transaction.create" },
  { method: "POST", re: new RegExp(`^${P}/capture-tokens/?$`), permission: "transaction.create", submitsWork: true },
  { method: "POST", re: new RegExp(`^${T}/projects/?$`), permission: "project.manage" },
  { method: "PATCH", re: new RegExp(`^${P}/?$`), permission: "project.manage" },
  { method: "PUT", re: new RegExp(`^${P}/settings/?$`), permission: "project.manage" },
  // Mail connectors hold mailbox credentials: reading them is managing the project too.
  { method: "*", re: new RegExp(`^${P}/mail-connectors(/.*)?$`), permission: "project.manage" },
  { method: "POST", re: new RegExp(`^${P}/datasets/?$`), permission: "project.manage" },
  { method: "DELETE", re: new RegExp(`^${P}/memories/[^/]+/?$`), permission: "project.manage" },
  { method: "GET", re: new RegExp(`^${P}(/.*)?$`) },
  { method: "GET", re: new RegExp(`^${T}(/.*)?$`) },
  { method: "POST", re: /^\/transactions\/batch-status\/?$/, permission: "transaction.read" },
  { method: "GET", re: /^\/transactions\/?$/, permission: "transaction.read" },
  { method: "POST", re: new RegExp(`^${X}/source-files/?$`), permission: "transaction.create" },
  { method: "GET", re: new RegExp(`^${X}/source-files/?$`), permission: "transaction.read" },
  { method: "POST", re: new RegExp(`^${X}/start/?$`), permission: "transaction.create", submitsWork: true },
  { method: "POST", re: new RegExp(`^${X}/rerun/?$`), permission: "transaction.create", submitsWork: true },
  {
    method: "GET",
    re: new RegExp(`^${X}/(exports|documents|pages)(/.*)?$`),
    permission: "transaction.download_results",
  },
  { method: "GET", re: new RegExp(`^${X}/review(/.*)?$`), permission: "transaction.review" },
  { method: "POST", re: new RegExp(`^${X}/review/?$`), permission: "transaction.review" },
  { method: "GET", re: new RegExp(`^${X}/deliveries/?$`), permission: "transaction.read" },
  { method: "POST", re: new RegExp(`^${X}/deliveries/[^/]+/redeliver/?$`), permission: "transaction.create" },
  { method: "GET", re: new RegExp(`^${X}/?$`), permission: "transaction.read" },
];

const SCOPES = [new RegExp(`^${P}(/|$)`), new RegExp(`^${T}(/|$)`), new RegExp(`^${X}(/|$)`)];

export function isAdminPath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}

/** The access rule of a request. Path segments are matched raw (percent-encoded ids are decoded). */
export function accessRuleOf(method: string, pathname: string): AccessRule {
  if (isAdminPath(pathname)) return { kind: "admin" };
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  const rule = ROUTE_RULES.find((r) => (r.method === m || r.method === "*") && r.re.test(pathname));
  const out: AccessRule = { kind: "authenticated", permission: rule?.permission, submitsWork: rule?.submitsWork };
  for (const re of SCOPES) {
    const g = re.exec(pathname)?.groups;
    if (!g) continue;
    if (g.tenant) out.tenantId = safeDecode(g.tenant);
    if (g.project) out.projectId = safeDecode(g.project);
    if (g.tx) out.transactionId = safeDecode(g.tx);
    break;
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

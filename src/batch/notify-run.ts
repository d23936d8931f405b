/**
 * Webhook notifications of a transaction finished by `docproc watch` (docs/webhooks.md): the CLI sends them itself,
 * with the same retry policy as the server's delivery jobs.
 *
 * MUST send nothing (and cost nothing) when the project has no enabled Notification step; MUST report a failed
 * delivery of a `fail_workflow_on_error` activity so the caller ends the transaction failed; other delivery
 * failures are warnings. Loopback and private receivers need DOCPROC_WEBHOOK_ALLOW, as for the server.
 */
import type { ExportManifest } from "../core/exporters";
import type { ProjectSettings } from "../core/project";
import { notificationNodes, planTransactionNotifications, runDeliveries } from "../core/stages/notify";
import { loadEnvSettings, type EnvSettings } from "../settings/env";

export interface NotifyOutcome {
  /** A `fail_workflow_on_error` delivery failed: the transaction MUST end failed with this reason. */
  failWorkflow: string | null;
  warnings: string[];
  sent: number;
}

export async function notifyFinished(
  project: ProjectSettings,
  transaction: { tenant_id: string; project_id: string; transaction_id: string },
  outcome: { status: "completed"; manifest: ExportManifest } | { status: "failed"; error: string; failedStage: string | null; manifest?: ExportManifest },
  webhooks?: EnvSettings["webhooks"],
): Promise<NotifyOutcome> {
  if (notificationNodes(project.workflow).length === 0) return { failWorkflow: null, warnings: [], sent: 0 };
  const env = webhooks ?? loadEnvSettings().webhooks;
  const plan = planTransactionNotifications({ workflow: project.workflow, transaction, outcome, publicBaseUrl: env.publicUrl });
  const { results, failWorkflow } = await runDeliveries(plan.deliveries, { allowPrivate: env.allowPrivate });
  const warnings = [
    ...plan.warnings,
    ...results.filter((r) => !r.result.ok).map((r) => `notification ${r.planned.activity_index + 1} (${r.planned.event}) failed: ${r.result.error ?? "unknown error"}`),
  ];
  return { failWorkflow: failWorkflow?.message ?? null, warnings, sent: results.filter((r) => r.result.ok).length };
}

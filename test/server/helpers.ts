import type { PipelineRunner } from "../../src/queue/pipeline-runner";
import type { ServerConfig } from "../../src/server/config";
import { buildTestApp } from "../support/app";
import { requestInit } from "../support/http";
import type { Clock } from "../../src/core/clock";

export const KEY = "test-admin-key";

export function testApp(
  opts: { runner?: PipelineRunner; config?: Partial<ServerConfig>; workers?: number; clock?: Clock } = {},
) {
  const t = buildTestApp({
    adminKey: KEY,
    prefix: "server",
    runner: opts.runner,
    config: opts.config,
    workers: opts.workers,
    clock: opts.clock,
  });
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await t.app.handle(
      new Request(
        `http://local${url}`,
        requestInit(method, { "x-api-key": KEY, ...headers }, body, { jsonStrings: true }),
      ),
    );
    const type = res.headers.get("content-type") ?? "";
    const json = type.includes("json") ? await res.json() : null;
    return { status: res.status, json: json as any, res };
  };
  const { app, deps, data, runtime, longPoll, dir } = t;
  return { app, deps, data, runtime, call, longPoll, dir, close: () => t.close() };
}

export function form(
  files: Array<{ name: string; body: string | Uint8Array; type?: string }>,
  extra: Record<string, string[]> = {},
): FormData {
  const f = new FormData();
  for (const file of files)
    f.append("files", new File([file.body as BlobPart], file.name, { type: file.type ?? "application/pdf" }));
  for (const [k, vals] of Object.entries(extra)) for (const v of vals) f.append(k, v);
  return f;
}

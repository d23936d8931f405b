/** `docproc capture` spawned through src/cli.ts against a real server on a loopback port (fake pipeline: fast). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import path from "node:path";
import type { Subprocess } from "bun";
import jsQR from "jsqr";
import { DEFAULT_CONFIG } from "../../src/server/config";
import { startServer, type RunningServer } from "../../src/server/start";
import { fakeRunner } from "../support/fake-runner";
import { capture, spawnCli } from "../support/process";
import { makeTempDir } from "../support/temp";
import { captureForm, scanJpeg } from "./helpers";
import { requestInit } from "../support/http";
import { waitForOutput } from "../support/wait";

const ADMIN = "capture-cli-admin";
let server: RunningServer;
let dir: string;
let project: string;
let key: string;

async function adminCall(method: string, url: string, body: unknown) {
  const res = await fetch(server.url + url, requestInit(method, { "x-api-key": ADMIN }, body));
  return res.json() as Promise<any>;
}

function spawnCapture(
  args: string[],
  env: Record<string, string> = {},
): { proc: Subprocess; output: () => string; stdout: () => string } {
  const proc = spawnCli(["capture", ...args], { env: { DOCPROC_API_KEY: "", ...env } });
  const output = capture(proc);
  return { proc, output, stdout: output };
}

function waitFor(read: () => string, re: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  return waitForOutput(read, re, { timeoutMs: ms, everyMs: 50 }).catch(() => {
    throw new Error(`no ${re} in output:\n${read()}`);
  });
}

/** Reads qrcode-terminal's half-block QR back into pixels (light = full block) and decodes it with jsQR. */
function decodeTerminalQr(text: string): string | null {
  const rows = text.split("\n").filter((l) => l.length > 10 && /^[█▀▄ ]+$/.test(l));
  const width = Math.max(...rows.map((r) => r.length));
  const light: boolean[][] = [];
  for (const row of rows) {
    const chars = [...row.padEnd(width, " ")];
    light.push(
      chars.map((c) => c === "█" || c === "▀"),
      chars.map((c) => c === "█" || c === "▄"),
    );
  }
  const scale = 6;
  const margin = 4 * scale;
  const w = width * scale + 2 * margin;
  const h = light.length * scale + 2 * margin;
  const px = new Uint8ClampedArray(w * h * 4).fill(255);
  light.forEach((line, y) =>
    line.forEach((isLight, x) => {
      if (isLight) return;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++)
          px.fill(
            0,
            ((margin + y * scale + dy) * w + margin + x * scale + dx) * 4,
            ((margin + y * scale + dy) * w + margin + x * scale + dx) * 4 + 3,
          );
    }),
  );
  return jsQR(px, w, h)?.data ?? null;
}

beforeAll(async () => {
  dir = makeTempDir("capture-cli");
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataDir: dir,
    workers: 1,
    runPipeline: fakeRunner,
    config: { ...DEFAULT_CONFIG, adminApiKey: ADMIN, longPollRecheckMs: 100 },
    log: () => {},
  });
  project = (await adminCall("POST", "/tenants/default/projects", { name: "Desk", description: "" })).project_id;
  await adminCall("POST", "/admin/clients", { client_id: "desk", name: "Desk" });
  key = (await adminCall("POST", "/admin/clients/desk/keys", { description: "cli" })).api_key;
});

afterAll(async () => {
  await server?.stop(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe("docproc capture", () => {
  test("prints a QR code that decodes to the capture link, waits for the phone and processing, then prints the documents", async () => {
    const run = spawnCapture(["--server", server.url, "--project", project], { DOCPROC_API_KEY: key });
    const [url, token] = await waitFor(run.output, /http:\/\/127\.0\.0\.1:\d+\/capture#(dp_cap_[A-Za-z0-9_-]+)/);
    expect(decodeTerminalQr(run.output())).toBe(url);
    await waitFor(run.output, /up to 20 pages/);
    // The phone: open the page (scan), then send two photos.
    expect(
      (
        await fetch(`${server.url}/capture/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token }),
        })
      ).status,
    ).toBe(200);
    await waitFor(run.output, /Code opened on the phone/, 10_000);
    const jpeg = await scanJpeg("FlipkartInvoice", 300);
    const sent = await fetch(`${server.url}/capture/submit`, {
      method: "POST",
      body: captureForm(token!, [
        { name: "page-01.jpg", data: jpeg },
        { name: "page-02.jpg", data: jpeg },
      ]),
    });
    const { transaction_id } = (await sent.json()) as { transaction_id: string };
    expect(await run.proc.exited).toBe(0);
    const out = run.output();
    expect(out).toContain(`Transaction ${transaction_id} completed`);
    expect(out).toContain("2 documents");
    expect(out).toContain("1. invoice (page 1)");
    expect(out).toContain("invoice_number: INV-page-02.jpg");
  }, 45_000);

  test("an unscanned code expires: the command stops with exit code 1 and says so", async () => {
    const run = spawnCapture(["--server", server.url, "--project", project, "--api-key", key, "--ttl", "1", "--json"]);
    expect(await run.proc.exited).toBe(1);
    expect(run.output()).toContain("The capture code expired before it was scanned");
  }, 20_000);

  test("without a key it is a usage error (2); a key the server refuses is reported with the server's reason", async () => {
    const none = spawnCapture(["--server", server.url, "--project", project]);
    expect(await none.proc.exited).toBe(2);
    expect(none.output()).toContain("an API key is needed");
    const bad = spawnCapture(["--server", server.url, "--project", project, "--api-key", "dp_live_nope"]);
    expect(await bad.proc.exited).toBe(1);
    expect(bad.output()).toContain("capture token: Invalid API key");
  }, 20_000);
});

/** The one environment settings module: defaults, every variable's effect, and every problem reported at once. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { DEFAULT_AUTH_SETTINGS } from "../../src/auth/settings";
import { DEFAULT_CAPTURE_SETTINGS } from "../../src/capture/settings";
import { DEFAULT_CONFIG } from "../../src/server/config";
import { describeEnv, loadEnvSettings } from "../../src/settings/env";
import { capture, freePort, runCli, spawnCommand } from "../support/process";
import { makeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";

describe("environment settings", () => {
  test("an empty environment gives the documented defaults and a generated admin key", () => {
    const s = loadEnvSettings({});
    expect(s.server).toMatchObject({ ...DEFAULT_CONFIG, generatedKey: true });
    expect(s.server.adminApiKey.length).toBeGreaterThanOrEqual(32);
    expect(s.auth).toEqual(DEFAULT_AUTH_SETTINGS);
    expect(s.capture).toEqual(DEFAULT_CAPTURE_SETTINGS);
    expect(s.queue).toEqual({ leaseMs: 30_000, jobTimeoutMs: 1_800_000 });
    expect(s.webhooks).toEqual({ publicUrl: null, allowPrivate: false });
    expect(s.listen).toEqual({ host: undefined, port: undefined, dataDir: undefined });
  });

  test("every variable reaches its slice (MB, hours and minutes scaled; empty counts as unset)", () => {
    const s = loadEnvSettings({
      ADMIN_API_KEY: " k ",
      DOCPROC_HOST: "0.0.0.0",
      DOCPROC_PORT: "9000",
      DOCPROC_DATA: "/srv/docproc",
      DOCPROC_MAX_FILE_MB: "2",
      DOCPROC_MAX_BODY_MB: "",
      DOCPROC_MAX_FILES: "7",
      DOCPROC_MAX_QUEUE_DEPTH: "12",
      DOCPROC_MAX_LONG_POLL_SECONDS: "30",
      DOCPROC_LEASE_SECONDS: "2",
      DOCPROC_JOB_TIMEOUT_SECONDS: "20",
      DOCPROC_PUBLIC_URL: "https://docs.example.com/",
      DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8, ::1/128",
      DOCPROC_CAPTURE_MAX_PAGES: "8",
      DOCPROC_RATE_LIMIT_PER_MINUTE: "60",
      DOCPROC_RATE_LIMIT_PER_HOUR: "100",
      DOCPROC_ASYNC_LIMIT_PER_HOUR: "5",
      DOCPROC_SESSION_HOURS: "1",
      DOCPROC_SESSION_IDLE_MINUTES: "5",
    });
    expect(s.listen).toEqual({ host: "0.0.0.0", port: 9000, dataDir: "/srv/docproc" });
    expect(s.server).toMatchObject({
      adminApiKey: "k",
      generatedKey: false,
      maxFileBytes: 2 * 1024 * 1024,
      maxBodyBytes: DEFAULT_CONFIG.maxBodyBytes,
      maxFilesPerUpload: 7,
      maxQueueDepth: 12,
      maxLongPollSeconds: 30,
    });
    expect(s.auth).toMatchObject({
      ratePerMinute: 60,
      ratePerHour: 100,
      asyncPerHour: 5,
      sessionLifetimeMs: 3600_000,
      sessionIdleMs: 300_000,
    });
    expect(s.server.auth).toEqual(s.auth);
    expect(s.queue).toEqual({ leaseMs: 2000, jobTimeoutMs: 20_000 });
    expect(s.capture).toMatchObject({ publicUrl: "https://docs.example.com", defaultMaxPages: 8 });
    expect(s.webhooks).toEqual({ publicUrl: "https://docs.example.com", allowPrivate: ["127.0.0.0/8", "::1/128"] });
  });

  test("reports every bad value at once, naming each variable and what it got", () => {
    let message = "";
    try {
      loadEnvSettings({
        DOCPROC_MAX_FILES: "many",
        DOCPROC_PORT: "70000",
        DOCPROC_LEASE_SECONDS: "-1",
        DOCPROC_PUBLIC_URL: "ftp://x",
        DOCPROC_WEBHOOK_ALLOW: "not-an-ip",
        DOCPROC_CAPTURE_MAX_PAGES: "0",
        DOCPROC_RATE_LIMIT_PER_HOUR: "x",
      });
    } catch (e) {
      expect((e as { code?: string }).code).toBe("invalid_settings");
      message = (e as Error).message;
    }
    for (const name of [
      "DOCPROC_MAX_FILES",
      "DOCPROC_PORT",
      "DOCPROC_LEASE_SECONDS",
      "DOCPROC_PUBLIC_URL",
      "DOCPROC_WEBHOOK_ALLOW",
      "DOCPROC_CAPTURE_MAX_PAGES",
      "DOCPROC_RATE_LIMIT_PER_HOUR",
    ]) {
      expect(message).toContain(name);
    }
    expect(message).toContain('"70000"');
  });

  test("no module outside src/settings reads process.env for a DOCPROC_ setting, and every variable is described", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts") && !p.includes(`${path.sep}settings${path.sep}`)) {
          const text = readFileSync(p, "utf8");
          if (/process\.env\.(DOCPROC_|ADMIN_API_KEY)|process\.env\[["'`](DOCPROC_|ADMIN_API_KEY)/.test(text))
            offenders.push(p);
        }
      }
    };
    walk(path.join(import.meta.dir, "../../src"));
    expect(offenders).toEqual([]);
    for (const v of describeEnv()) expect(v.description.length).toBeGreaterThan(5);
  });
});

describe("docproc serve reads its settings from the environment", () => {
  test("DOCPROC_HOST, DOCPROC_PORT and DOCPROC_DATA stand in for --host, --port and --data", async () => {
    const dir = makeTempDir("docproc-env-");
    const port = await freePort();
    const proc = spawnCommand("serve", ["--workers", "0"], {
      ADMIN_API_KEY: "k",
      DOCPROC_HOST: "127.0.0.1",
      DOCPROC_PORT: String(port),
      DOCPROC_DATA: path.join(dir, "data"),
    });
    const output = capture(proc);
    try {
      const healthy = () =>
        fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        );
      const up = async () => (proc.exitCode === null ? await healthy() : ("exited" as const));
      const ok = (await waitFor("/health", up, { timeoutMs: 20_000, everyMs: 100 }).catch(() => false)) === true;
      expect(ok).toBe(true);
      expect(output()).toContain(`listening on http://127.0.0.1:${port}`);
      expect(existsSync(path.join(dir, "data"))).toBe(true);
    } finally {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("bad variables stop serve before it listens, all named in one message, exit code non-zero", async () => {
    const run = await runCli(["serve", "--port", "0"], {
      env: { DOCPROC_MAX_FILES: "many", DOCPROC_LEASE_SECONDS: "0", DOCPROC_PUBLIC_URL: "nope" },
    });
    expect(run.code).not.toBe(0);
    for (const name of ["DOCPROC_MAX_FILES", "DOCPROC_LEASE_SECONDS", "DOCPROC_PUBLIC_URL"])
      expect(run.stderr).toContain(name);
    expect(run.stdout).not.toContain("listening");
  });
});

/**
 * The deployment files, checked as far as this machine allows (no container runtime here): the Dockerfile, compose
 * file and systemd units parse and name only commands, flags and variables docproc has; and the compiled binary
 * starts, answers the HEALTHCHECK and stops cleanly on SIGTERM from a directory tree assembled exactly as the
 * Dockerfile's runtime stage assembles it (its COPY --from=build lines, ENV, WORKDIR, ENTRYPOINT and CMD).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { buildBinary } from "../../scripts/build";
import { COMMANDS } from "../../src/commands/index";
import { EnvSchema, loadEnvSettings } from "../../src/settings/env";
import { waitFor } from "../support/wait";

const ROOT = path.resolve(import.meta.dir, "../..");
const read = (f: string) => readFileSync(path.join(ROOT, f), "utf8");
const KNOWN_ENV = new Set(Object.keys(EnvSchema.shape));

interface Instr {
  op: string;
  args: string;
}

/** Dockerfile instructions per stage (continuation lines joined, comments dropped). */
function dockerStages(text: string): Instr[][] {
  const joined = text
    .split("\n")
    .filter((l) => !/^\s*#/.test(l))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: Instr[][] = [];
  for (const line of joined
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op) throw new Error(`Dockerfile: cannot read ${JSON.stringify(line)}`);
    if (op.toUpperCase() === "FROM") stages.push([]);
    stages.at(-1)!.push({ op: op.toUpperCase(), args: args.trim() });
  }
  return stages;
}

/** `ENV A=1 B=2` → entries. */
const envPairs = (args: string) =>
  [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2].replace(/^"|"$/g, "")] as const);

/** A docproc argv names a real command and only flags that command has. */
function checkArgv(argv: string[], where: string): void {
  const Cmd = COMMANDS[argv[0]];
  expect(Cmd, `${where}: unknown command ${argv[0]}`).toBeDefined();
  for (const a of argv.slice(1).filter((a) => a.startsWith("--"))) {
    expect(Object.keys(Cmd.flags ?? {}), `${where}: ${argv[0]} has no flag ${a}`).toContain(a.slice(2).split("=")[0]);
  }
}

const stages = dockerStages(read("Dockerfile"));
const runtime = stages.at(-1)!;
const one = (op: string) => runtime.filter((i) => i.op === op);

describe("Dockerfile", () => {
  test("multi-stage; the runtime stage is slim, non-root, with a data volume and a HEALTHCHECK on /health", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runtime[0].args).toMatch(/slim/);
    const user = one("USER").at(-1)!.args;
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const env = Object.fromEntries(one("ENV").flatMap((i) => envPairs(i.args)));
    for (const name of Object.keys(env))
      expect(KNOWN_ENV.has(name), `ENV ${name} is not a docproc variable`).toBe(true);
    expect(JSON.parse(one("VOLUME")[0].args)).toEqual([env.DOCPROC_DATA]);
    expect(one("EXPOSE")[0].args).toBe(env.DOCPROC_PORT);
    expect(one("HEALTHCHECK")[0].args).toContain(`:${env.DOCPROC_PORT}/health`);
    const entry = JSON.parse(one("ENTRYPOINT")[0].args) as string[];
    const cmd = JSON.parse(one("CMD")[0].args) as string[];
    expect(entry).toHaveLength(1);
    checkArgv(cmd, "Dockerfile CMD");
    // Only the binary and its folder come over from the build stage, side by side.
    const copies = one("COPY").map((i) => i.args);
    expect(copies.every((c) => c.startsWith("--from=build "))).toBe(true);
    expect(copies.map((c) => path.dirname(c.split(/\s+/).at(-1)!))).toEqual([
      path.dirname(entry[0]),
      path.dirname(entry[0]),
    ]);
  });
});

describe("compose.yaml", () => {
  test("parses; services run real commands with real flags and variables, on the Dockerfile's volume", () => {
    const doc = parseYaml(read("compose.yaml"));
    const volume = JSON.parse(one("VOLUME")[0].args)[0];
    expect(doc.services.docproc.build).toBe(".");
    for (const [name, svc] of Object.entries(doc.services as Record<string, any>)) {
      checkArgv(svc.command, `compose ${name}`);
      for (const key of Object.keys(svc.environment ?? {}))
        expect(KNOWN_ENV.has(key), `compose ${name}: ${key}`).toBe(true);
      expect(svc.volumes.map((v: string) => v.split(":")[1])).toContain(volume);
      expect(svc.stop_grace_period).toBeDefined();
    }
    expect(Object.keys(doc.volumes)).toContain(doc.services.docproc.volumes[0].split(":")[0]);
  });
});

describe("compose.scale.yaml and the two-host env files (PostgreSQL + S3)", () => {
  test("docproc services run real commands with real variables; the env files name only real variables", () => {
    const doc = parseYaml(read("compose.scale.yaml"));
    const docproc = Object.entries(doc.services as Record<string, any>).filter(
      ([, svc]) => svc.image === "docproc:local",
    );
    expect(docproc.map(([name]) => name).sort()).toEqual(["api", "worker"]);
    for (const [name, svc] of docproc) {
      checkArgv(svc.command, `compose.scale ${name}`);
      for (const key of Object.keys(svc.environment))
        expect(KNOWN_ENV.has(key), `compose.scale ${name}: ${key}`).toBe(true);
      expect(svc.environment.DOCPROC_DATABASE_URL).toStartWith("postgres://");
      expect(svc.environment.DOCPROC_STORAGE_URL).toStartWith("s3://");
      expect(svc.volumes).toBeUndefined(); // nothing shared through a disk
    }
    for (const file of ["common.env", "host-a-api.env", "host-b-worker.env"]) {
      const keys = read(`deploy/two-hosts/${file}`)
        .split("\n")
        .filter((l) => /^\w+=/.test(l))
        .map((l) => l.split("=")[0]!);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(KNOWN_ENV.has(key), `${file}: ${key}`).toBe(true);
    }
    expect(
      loadEnvSettings(
        Object.fromEntries(
          read("deploy/two-hosts/common.env")
            .split("\n")
            .filter((l) => /^\w+=/.test(l))
            .map((l) => l.split(/=(.*)/s).slice(0, 2)),
        ),
      ).database.url,
    ).toStartWith("postgres://");
  });
});

describe("systemd units", () => {
  const units = [
    "deploy/systemd/docproc.service",
    "deploy/systemd/docproc-watch.service",
    "deploy/systemd/docproc-worker@.service",
  ];
  test("ExecStart runs a real command with real flags; Environment names real variables", () => {
    for (const unit of units) {
      const lines = read(unit)
        .split("\n")
        .filter((l) => /^\w+=/.test(l));
      const exec = lines
        .find((l) => l.startsWith("ExecStart="))!
        .slice("ExecStart=".length)
        .split(/\s+/);
      expect(exec[0]).toBe("/opt/docproc/docproc");
      checkArgv(exec.slice(1), unit);
      for (const l of lines.filter((l) => l.startsWith("Environment=")))
        expect(KNOWN_ENV.has(l.slice(12).split("=")[0]), `${unit}: ${l}`).toBe(true);
      expect(lines).toContain("KillSignal=SIGTERM");
    }
  });

  test("systemd-analyze verify accepts them (binary path pointed at a stand-in)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-units-"));
    try {
      const bin = path.join(dir, "docproc");
      writeFileSync(bin, "#!/bin/sh\n", { mode: 0o755 });
      // A template unit (docproc-worker@.service) is verified through the ExecStart check above.
      const files = units
        .filter((u) => !u.includes("@"))
        .map((u) => {
          const out = path.join(dir, path.basename(u));
          writeFileSync(out, read(u).replaceAll("/opt/docproc/docproc", bin));
          return out;
        });
      const proc = Bun.spawnSync(["systemd-analyze", "verify", "--man=no", ...files], {
        stderr: "pipe",
        stdout: "pipe",
      });
      const out = proc.stderr.toString() + proc.stdout.toString();
      // Users and directories of the target host do not exist here; anything else is a real problem.
      const problems = out
        .split("\n")
        .filter(
          (l) => l.trim() && !/docproc\.env|User|Group|Failed to (create|prepare)|bus|Unit .*not found|\/srv\//.test(l),
        );
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the image's layout, assembled here", () => {
  let root = "";
  beforeAll(async () => {
    await buildBinary();
    root = mkdtempSync(path.join(tmpdir(), "docproc-image-"));
    // COPY --from=build /src/<path> <dest>: the build stage's /src is this repository.
    for (const c of one("COPY")) {
      const [, src, dest] = c.args.split(/\s+/);
      cpSync(path.join(ROOT, path.relative("/src", src)), path.join(root, dest), { recursive: true });
    }
  }, 600_000);
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));

  test("ENTRYPOINT + CMD start the server from the tree; the HEALTHCHECK passes; SIGTERM stops it with exit 0", async () => {
    const env = Object.fromEntries(one("ENV").flatMap((i) => envPairs(i.args)));
    const data = path.join(root, env.DOCPROC_DATA);
    mkdirSync(data, { recursive: true });
    const port = 20000 + Math.floor(Math.random() * 20000);
    const entry = JSON.parse(one("ENTRYPOINT")[0].args) as string[];
    const cmd = JSON.parse(one("CMD")[0].args) as string[];
    const proc = Bun.spawn([path.join(root, entry[0]), ...cmd], {
      cwd: path.join(root, one("WORKDIR").at(-1)!.args),
      env: {
        PATH: "/usr/bin:/bin",
        HOME: data,
        ...env,
        DOCPROC_DATA: data,
        DOCPROC_HOST: "127.0.0.1",
        DOCPROC_PORT: String(port),
        ADMIN_API_KEY: "image-test-key",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = new Response(proc.stderr).text();
    try {
      const health = JSON.parse(one("HEALTHCHECK")[0].args.replace(/^.*?CMD\s+/, "")) as string[];
      const check = health.map((a) => a.replace(`:${env.DOCPROC_PORT}/`, `:${port}/`));
      const healthy = () => Bun.spawnSync(check).exitCode === 0;
      const ok = await waitFor("the HEALTHCHECK command", healthy, { timeoutMs: 90_000, everyMs: 500 }).catch(
        () => false,
      );
      expect(ok).toBe(true);
      expect(existsSync(path.join(data, "docproc.db"))).toBe(true);
    } finally {
      proc.kill("SIGTERM");
    }
    expect(await proc.exited).toBe(0);
    // DOCPROC_LOG_FORMAT=json: JSON lines on stderr, the health checks among them.
    const lines = (await stderr)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.event === "listening")).toBe(true);
    expect(lines.some((l) => l.event === "http_request" && l.route === "/health" && l.status === 200)).toBe(true);
  }, 180_000);
});

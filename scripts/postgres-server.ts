/**
 * A private PostgreSQL server for the tests and the bench, from Debian's `postgresql` package: initdb in a temp
 * directory, a free loopback port, fsync off (a throwaway cluster), C locale (byte order, as SQLite sorts).
 * PostgreSQL refuses to run as root: as root, the package's `postgres` user owns the cluster.
 * `logStatements`: every statement is logged, so a caller can count database round trips.
 */
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface PostgresServer {
  url: string;
  /** Statements logged so far (with `logStatements`). */
  statementCount(): number;
  stop(): void;
}

function binDir(): string {
  const fromConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const candidates = [
    ...(existsSync("/usr/lib/postgresql")
      ? readdirSync("/usr/lib/postgresql")
          .sort()
          .reverse()
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
    fromConfig.status === 0 ? fromConfig.stdout.trim() : "",
  ];
  const dir = candidates.find((d) => d && existsSync(path.join(d, "initdb")) && existsSync(path.join(d, "pg_ctl")));
  if (!dir)
    throw new Error(
      "a PostgreSQL server is needed (Debian: apt install postgresql), or give its URL in DOCPROC_TEST_POSTGRES_URL",
    );
  return dir;
}

function freePort(): number {
  // Synchronous: a child asks the kernel for a port (a server here would need the event loop).
  const r = spawnSync(
    process.execPath,
    ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"],
    { encoding: "utf8" },
  );
  return Number(r.stdout.trim());
}

/**
 * A detached watchdog stops the server and removes its directory once `pid` is gone, however it ended: `bun test`
 * runs no process "exit" handlers, and a killed test process runs none either (each run left a server behind).
 */
function stopWithOwner(pid: number, asRoot: boolean, pgCtl: string, data: string, root: string): void {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const stop = `${asRoot ? "runuser -u postgres -- " : ""}${q(pgCtl)} -D ${q(data)} -m immediate stop`;
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ${stop} >/dev/null 2>&1; rm -rf ${q(root)}`;
  // The watchdog is a grandchild in a session of its own (the shell starts it and exits): `bun test` workers end
  // the processes they spawned, process group included, when they finish (measured: a direct-child watchdog died
  // with the worker and left the server running).
  spawn("sh", ["-c", `setsid sh -c ${q(script)} </dev/null >/dev/null 2>&1 &`], {
    detached: true,
    stdio: "ignore",
  }).unref();
}

export function startPostgres(opts: { logStatements?: boolean; ownerPid?: number } = {}): PostgresServer {
  const bin = binDir();
  const root = mkdtempSync(path.join(tmpdir(), "docproc-pg-"));
  const data = path.join(root, "data");
  const log = path.join(root, "log");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout);
    chownSync(root, id("-u"), id("-g"));
  }
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    const r = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", full, ...args], { encoding: "utf8" })
      : spawnSync(full, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "-N"]);
  const port = freePort();
  const settings = [
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
  ];
  if (opts.logStatements) settings.push("-c log_statement=all", "-c log_line_prefix=%m:");
  run("pg_ctl", ["-D", data, "-o", `-p ${port} -k ${root} ${settings.join(" ")}`, "-l", log, "-w", "start"]);
  if (opts.ownerPid) stopWithOwner(opts.ownerPid, asRoot, path.join(bin, "pg_ctl"), data, root);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    statementCount: () =>
      existsSync(log) ? (readFileSync(log, "utf8").match(/LOG: {2}(statement|execute [^:]*):/g)?.length ?? 0) : 0,
    stop() {
      if (stopped) return;
      stopped = true;
      run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

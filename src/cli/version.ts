/**
 * What `docproc --version` prints: the package version and the commit the build came from, e.g.
 * `0.1.0 (commit 1f777c5…)`. A compiled binary has the commit embedded at build time (scripts/build.ts defines
 * DOCPROC_BUILD_COMMIT); a checkout asks git, only when the version is asked for (never on a command's start-up
 * path), and says `+changes` when tracked files differ from the commit. Without either: `commit unknown`.
 */
import path from "node:path";

declare const DOCPROC_BUILD_COMMIT: string | undefined;

const ROOT = path.resolve(import.meta.dir, "../..");

function gitCommit(): string | null {
  try {
    const head = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
    const sha = head.success ? head.stdout.toString().trim() : "";
    if (!/^[0-9a-f]{40}$/.test(sha)) return null;
    const status = Bun.spawnSync(["git", "status", "--porcelain", "--untracked-files=no"], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "ignore",
    });
    return status.success && status.stdout.toString().trim() ? `${sha}+changes` : sha;
  } catch {
    return null; // no git on this machine
  }
}

export function buildCommit(): string | null {
  if (typeof DOCPROC_BUILD_COMMIT === "string" && DOCPROC_BUILD_COMMIT) return DOCPROC_BUILD_COMMIT;
  return gitCommit();
}

export function versionLine(version: string): string {
  return `${version} (commit ${buildCommit() ?? "unknown"})`;
}

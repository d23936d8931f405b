/**
 * A connector process that SIGKILLs itself at a named moment of an import (test/mail/crash.test.ts):
 * `bun crash-child.ts <data dir> <point> <nth> <lease ms>`; DOCPROC_SECRET_KEY in the environment.
 * No clean-up of any kind runs: the kernel ends the process as it would on a power cut or an OOM kill.
 */
import { pollOnce } from "../../src/mail/runner";
import { openDataDir } from "../../src/queue/runtime";
import { systemClock } from "../../src/core/clock";
import { parseSecretKey } from "../../src/storage/auth/secret-box";
import type { ImportPoint } from "../../src/mail/importer";

const [dir, point, nth, lease] = process.argv.slice(2) as [string, ImportPoint | "none", string, string];
const data = openDataDir(dir);
let seen = 0;
const { reports, errors } = await pollOnce(
  {
    db: data.db,
    clock: systemClock,
    blobs: data.blobs,
    maxQueueDepth: 1000,
    maxFileBytes: 50 * 1024 * 1024,
    maxFiles: 100,
    leaseMs: Number(lease),
    maxAttempts: 3,
    wake: () => {},
    log: (m) => process.stderr.write(`${m}\n`),
    at: (p) => {
      if (p === point && ++seen === Number(nth)) process.kill(process.pid, "SIGKILL");
    },
  },
  { secretKey: parseSecretKey(process.env.DOCPROC_SECRET_KEY!) },
);
process.stdout.write(JSON.stringify({ imported: reports.reduce((n, r) => n + r.imported.length, 0), errors }));

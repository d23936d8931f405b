#!/bin/sh
":" /*
# The npm bin (`npm install -g .`, `npm link`, npx): a POSIX shell script and an ES module in one file.
#
# As a shell script it finds the Bun that `npm ci` installed beside this package (the `bun` npm dependency; a
# global `bun` is only the fallback) and replaces itself with it (exec: one process, the same PID, so SIGTERM and
# SIGINT from a service manager or a terminal reach docproc itself). It sets JavaScriptCore's options for the kind
# of run on the way, because JSC reads them only when a process starts: every way of starting docproc gets the
# tuning of src/cli/jit.ts (which says why each value) without the restart `bun src/cli.ts` needs. The values here
# MUST equal jscRestartEnv() there (test/cli/install.test.ts compares them); a user's own BUN_JSC_* values win.
# Bun then runs this same file as JavaScript, where everything up to the closing comment is a string and a comment.
# Line 2 MUST stay `":" /*` with no semicolon: for sh, `/*` is then an argument of the no-op `:`; as a command of its
# own it runs `/bin` ("Permission denied" on every start). Biome is told to leave this file alone (biome.json).
self=$(readlink -f "$0" 2>/dev/null) || self=$0
root=${self%/*}/..
bun=
for candidate in "$root/node_modules/bun/bin/bun.exe" "$root/node_modules/.bin/bun" "$root/../bun/bin/bun.exe" "$root/../.bin/bun"; do
  if [ -x "$candidate" ]; then bun=$candidate; break; fi
done
if [ -z "$bun" ]; then
  bun=$(command -v bun) || { echo "docproc: Bun not found; run 'npm ci' in $(cd "$root" && pwd)" >&2; exit 127; }
fi
case "${1-}" in
  process)
    if [ -z "${BUN_JSC_useFTLJIT+set}" ]; then
      ram=1073741824
      if [ -r /proc/meminfo ]; then
        while read -r name kb _; do
          if [ "$name" = "MemTotal:" ]; then [ $((kb * 1024)) -lt $ram ] && ram=$((kb * 1024)); break; fi
        done < /proc/meminfo
      fi
      export BUN_JSC_useFTLJIT=0
      export BUN_JSC_forceRAMSize="${BUN_JSC_forceRAMSize:-$ram}"
      export BUN_JSC_thresholdForOMGOptimizeAfterWarmUp="${BUN_JSC_thresholdForOMGOptimizeAfterWarmUp:-5000000}"
      export BUN_JSC_thresholdForOMGOptimizeSoon="${BUN_JSC_thresholdForOMGOptimizeSoon:-50000}"
      export BUN_JSC_thresholdForOptimizeAfterWarmUp="${BUN_JSC_thresholdForOptimizeAfterWarmUp:-3000}"
      export BUN_JSC_thresholdForOptimizeAfterLongWarmUp="${BUN_JSC_thresholdForOptimizeAfterLongWarmUp:-3000}"
    fi ;;
  serve|worker|watch)
    if [ -z "${BUN_JSC_useFTLJIT+set}${BUN_JSC_thresholdForFTLOptimizeAfterWarmUp+set}${BUN_JSC_thresholdForFTLOptimizeSoon+set}" ]; then
      export BUN_JSC_thresholdForFTLOptimizeAfterWarmUp=1000000
      export BUN_JSC_thresholdForFTLOptimizeSoon=10000
    fi ;;
esac
exec "$bun" "$self" "$@"
":" */

// Run by Bun directly (`bun bin/docproc.js …`, which skips the lines above): the restart of src/cli/jit.ts tunes
// the run instead. After the shell part it finds the options set and does nothing.
import { execForBatchJit } from "../src/cli/jit.ts";

execForBatchJit();
// Under npx / npm run, npm and its shell sit between a signal and docproc: follow the parent out (src/cli/parent-death.ts).
if (process.env.npm_command) await (await import("../src/cli/parent-death.ts")).terminateWithParent();
const { runCli } = await import("../src/cli.ts");
await runCli();

#!/usr/bin/env bun
// `npx docproc` puts node_modules/.bin (and so Bun, an npm dependency) on PATH; Bun runs the TypeScript directly.
import { runCli } from "../src/cli.ts";

await runCli();

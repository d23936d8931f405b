/**
 * Debian's chromium for the page tests, started headless the same way everywhere: no sandbox (CI runs as root), and
 * nothing that would reach the network (updates, sync, QUIC, background requests).
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run installs it)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Phone capture settings. The server reads them from the environment once (captureSettingsFromEnv); everything
 * else receives a plain object, so tests pass their own.
 */
import { DocprocError } from "../core/errors";

export interface CaptureSettings {
  /** Used for ttl_seconds when the request leaves it out (spec: 900). */
  defaultTtlSeconds: number;
  /** Largest ttl_seconds accepted; above it the request is a 400 (spec: 3600). */
  maxTtlSeconds: number;
  /** max_pages of a token minted without page_limit. */
  defaultMaxPages: number;
  /** Largest page_limit (and so max_pages) a token may carry. */
  maxPageLimit: number;
  /**
   * Base of capture_url (`{publicUrl}/capture#<token>`), e.g. `https://docs.example.com`. Null: the origin of the
   * minting request, which a phone can only reach when the caller used an address the phone can reach too.
   */
  publicUrl: string | null;
}

export const DEFAULT_CAPTURE_SETTINGS: CaptureSettings = {
  defaultTtlSeconds: 900,
  maxTtlSeconds: 3600,
  defaultMaxPages: 20,
  maxPageLimit: 500,
  publicUrl: null,
};

/** DOCPROC_PUBLIC_URL and DOCPROC_CAPTURE_MAX_PAGES; every bad value is reported at once. */
export function captureSettingsFromEnv(env: Record<string, string | undefined> = process.env): CaptureSettings {
  const problems: string[] = [];
  const s: CaptureSettings = { ...DEFAULT_CAPTURE_SETTINGS };
  const pages = env.DOCPROC_CAPTURE_MAX_PAGES?.trim();
  if (pages) {
    const n = Number(pages);
    if (!Number.isInteger(n) || n < 1 || n > s.maxPageLimit) problems.push(`DOCPROC_CAPTURE_MAX_PAGES must be an integer from 1 to ${s.maxPageLimit}, got ${JSON.stringify(pages)}`);
    else s.defaultMaxPages = n;
  }
  const url = env.DOCPROC_PUBLIC_URL?.trim();
  if (url) {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) problems.push(`DOCPROC_PUBLIC_URL must be an http(s) URL, got ${JSON.stringify(url)}`);
    else s.publicUrl = url.replace(/\/+$/, "");
  }
  if (problems.length) throw new DocprocError("invalid_settings", problems.join("; "));
  return s;
}

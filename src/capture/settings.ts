/**
 * Phone capture settings. The server reads them from the environment once (src/settings/env.ts); everything
 * else receives a plain object, so tests pass their own.
 */
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

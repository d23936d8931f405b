/**
 * The deployment's public URL in the database (storage/projects/deployment.ts): what a `serve` records at start is what a
 * `docproc worker` without DOCPROC_PUBLIC_URL builds webhook links from. Runs on both engines. The whole path
 * (servers with the variable, workers without it, links in the received payloads) is in test/scale/cluster.test.ts.
 */
import { afterEach, expect, test } from "bun:test";
import { recordedPublicUrl, recordPublicUrl } from "../../../src/storage/projects/deployment";
import { freshDb } from "../helpers";

let env: ReturnType<typeof freshDb>;
afterEach(() => env?.cleanup());
const now = "2026-01-01T00:00:00.000Z";

test("a configured public URL wins over listen addresses; a listen address replaces only another one", () => {
  env = freshDb();
  const { db } = env;
  expect(recordedPublicUrl(db)).toBeNull();
  recordPublicUrl(db, "http://127.0.0.1:8080", false, now);
  expect(recordedPublicUrl(db)).toBe("http://127.0.0.1:8080");
  recordPublicUrl(db, "http://127.0.0.1:8081", false, now);
  expect(recordedPublicUrl(db)).toBe("http://127.0.0.1:8081");
  recordPublicUrl(db, "https://docproc.example.com", true, now);
  // A second server without DOCPROC_PUBLIC_URL starting later does not undo it...
  recordPublicUrl(db, "http://0.0.0.0:8080", false, now);
  expect(recordedPublicUrl(db)).toBe("https://docproc.example.com");
  // ...a newly configured one replaces it, and another process sees the row.
  recordPublicUrl(db, "https://docs.example.org/docproc", true, now);
  const other = env.connect();
  try {
    expect(recordedPublicUrl(other)).toBe("https://docs.example.org/docproc");
  } finally {
    other.close();
  }
});

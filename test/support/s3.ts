/**
 * An S3-compatible server on loopback for tests: s3rver, a protocol stand-in (it speaks the S3 REST API with
 * signature checks, stores objects in a folder; it is not a production object store). Started by the test that
 * needs it on a random port in a temporary folder, so `.ci/run` needs nothing for it.
 */
import S3rver from "s3rver";
import type { StorageConfig } from "../../src/storage/files/storage-config";
import { makeTempDir } from "./temp";
import { rmSync } from "node:fs";

export const S3_BUCKET = "docproc-test";
/** s3rver's fixed credentials. */
export const S3_KEY = "S3RVER";

export interface TestS3 {
  endpoint: string;
  /** The folder s3rver keeps the bucket in. */
  dir: string;
  /** A store config on this server under `prefix`. */
  config(prefix: string): StorageConfig & { kind: "s3" };
  /** The environment `serve`/`worker` need to use this server under `prefix`. */
  env(prefix: string): Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const dir = makeTempDir("s3rver");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: dir,
    silent: true,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    dir,
    config: (prefix) => ({
      kind: "s3",
      bucket: S3_BUCKET,
      prefix,
      endpoint,
      region: "us-east-1",
      accessKeyId: S3_KEY,
      secretAccessKey: S3_KEY,
      virtualHostedStyle: false,
    }),
    env: (prefix) => ({
      DOCPROC_STORAGE_URL: `s3://${S3_BUCKET}/${prefix}`,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: S3_KEY,
      AWS_SECRET_ACCESS_KEY: S3_KEY,
    }),
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "../src/lib/files/s3-storage.ts";

/**
 * A local S3-compatible server for the tests: s3rver (pinned in package.json), a JS
 * implementation of the S3 REST API that keeps objects in a temporary directory. It checks
 * SigV4 signatures but not the payload hash and has no AbortMultipartUpload (it answers 405 and
 * keeps the parts in its own `._S3rver_uploads` folder), so these tests show that no *object*
 * is left behind, not that a real S3 frees the parts (Bun sends the abort; S3 and MinIO honour
 * it). Ports come from the loopback range this project's tests may use, 4400-4499.
 */
export type TestS3 = { settings: S3Settings; objects(): Promise<string[]>; stop(): Promise<void> };

const BUCKET = "admissions-documents";

export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "admissions-s3-"));
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 4400 + Math.floor(Math.random() * 100);
    const server = new S3rver({
      port,
      address: "127.0.0.1",
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    try {
      await server.run();
    } catch {
      continue; // taken by another test run: try another port
    }
    const settings: S3Settings = {
      bucket: BUCKET,
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      // s3rver's fixed credentials; it refuses any others.
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    };
    const client = new Bun.S3Client({ ...settings, virtualHostedStyle: false });
    return {
      settings,
      async objects() {
        const listing = await client.list({ prefix: "documents/" });
        return (listing.contents ?? []).map((entry) => entry.key);
      },
      async stop() {
        await server.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  throw new Error("no free loopback port in 4400-4499 for the S3 test server");
}

/** Settings for a server that is not there: a port in the range that nobody listens on. */
export function unreachableS3(): S3Settings {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 4400 + Math.floor(Math.random() * 100);
    try {
      Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }).stop(true);
    } catch {
      continue;
    }
    return {
      bucket: BUCKET,
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    };
  }
  throw new Error("no free loopback port in 4400-4499");
}

import { describe, expect, test } from "bun:test";
import { documentsS3, loadEnv } from "../src/env.ts";

const S3 = {
  ADMISSIONS_S3_BUCKET: "docs",
  ADMISSIONS_S3_ENDPOINT: "http://127.0.0.1:4410",
  ADMISSIONS_S3_ACCESS_KEY_ID: "id",
  ADMISSIONS_S3_SECRET_ACCESS_KEY: "secret",
};

describe("S3 settings are validated together", () => {
  test("none set: local disk; all set: the S3 settings, region us-east-1 by default", () => {
    expect(documentsS3(loadEnv({}))).toBeNull();
    expect(documentsS3(loadEnv(S3))).toEqual({
      bucket: "docs",
      endpoint: "http://127.0.0.1:4410",
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
    });
  });

  test("a bucket without credentials, or credentials without a bucket, refuse to start", () => {
    const { ADMISSIONS_S3_SECRET_ACCESS_KEY: _secret, ...noSecret } = S3;
    expect(() => loadEnv(noSecret)).toThrow(
      "ADMISSIONS_S3_SECRET_ACCESS_KEY: required when ADMISSIONS_S3_BUCKET is set",
    );
    const { ADMISSIONS_S3_BUCKET: _bucket, ...noBucket } = S3;
    expect(() => loadEnv(noBucket)).toThrow("ADMISSIONS_S3_BUCKET is not");
    expect(() => loadEnv({ ...S3, ADMISSIONS_S3_ENDPOINT: "ftp://x" })).toThrow(
      "ADMISSIONS_S3_ENDPOINT",
    );
  });

  test("production refuses a plain-http endpoint that is not loopback", () => {
    const production = {
      NODE_ENV: "production",
      ADMISSIONS_JWT_SECRET: "x".repeat(40),
      ADMISSIONS_MAIL_DROP: "true",
    };
    expect(() =>
      loadEnv({ ...production, ...S3, ADMISSIONS_S3_ENDPOINT: "http://minio.internal:9000" }),
    ).toThrow("https only");
    expect(documentsS3(loadEnv({ ...production, ...S3 }))?.bucket).toBe("docs");
  });
});

import { ConfigError, createStore, runService } from "@platform/server";
import packageJson from "../package.json";
import { createApp } from "./app.ts";
import { appSettings, databaseConfig, deliveryPolicy, reminderSettings } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { documentsS3, loadEnv } from "./env.ts";
import { afterResponse } from "./lib/after-response.ts";
import { s3Storage } from "./lib/files/s3-storage.ts";
import { localDiskStorage } from "./lib/files/storage.ts";
import { admissionsMetrics } from "./metrics.ts";
import { chainAuditBacklog } from "./modules/audit/service.ts";
import { dropMailer, smtpMailer } from "./modules/outbox/service.ts";
import { importSigningKey } from "./modules/signed-documents/service.ts";
import { collaborators, startBackgroundJobs } from "./wiring.ts";

await runService({
  name: "admissions",
  version: packageJson.version,
  loadEnv,
  ports: (env) => ({ port: env.ADMISSIONS_PORT, metricsPort: env.ADMISSIONS_METRICS_PORT }),
  async start({ env, logger, metrics }) {
    const db = await openDatabase(databaseConfig(env));
    // Asked once before anything else: a server that does not answer (or a file that cannot be
    // made) is named as the variable to fix, not met as a bare error in the first migration.
    await db.ping().catch((error: unknown) => {
      const variable = env.DATABASE_URL ? "DATABASE_URL" : "ADMISSIONS_SQLITE_FILE";
      const problem = "the database does not answer";
      throw new ConfigError(problem, [{ variable, problem }], { cause: error });
    });
    if (env.ADMISSIONS_MIGRATE_ON_START) {
      logger.info("migrations applied", { versions: await migrate(db) });
    }
    // A configured signing key that is not one fails here, not at the first letter.
    if (env.ADMISSIONS_SIGNING_KEY) await importSigningKey(env.ADMISSIONS_SIGNING_KEY);
    const chained = await chainAuditBacklog(db);
    if (chained > 0) logger.info("audit entries from before the hash chain chained", { chained });
    const store = createStore({ redisUrl: env.REDIS_URL, prefix: "admissions:" });
    logger.info("starting", { database: db.dialect, store: store.kind });
    const s3 = documentsS3(env);
    const documentStorage = s3 ? s3Storage(s3) : localDiskStorage(env.ADMISSIONS_DOCUMENTS_DIR);
    logger.info("document storage", { kind: documentStorage.kind });
    if ("sweepIncoming" in documentStorage) {
      // Uploads cut off by a crash or restart leave `.part` files; an hour is far past any upload.
      const swept = await documentStorage.sweepIncoming(3_600_000);
      if (swept > 0) logger.info("partial uploads removed", { count: swept });
    }
    const settings = appSettings(env);
    if (metrics) admissionsMetrics(metrics, db);
    const deps = {
      ...settings,
      db,
      store,
      logger,
      documentStorage,
      metrics,
      afterResponse: afterResponse(logger),
    };
    // Built once: requests and the background jobs move applications through the same effects
    // and seal webhook secrets with the same box.
    const built = collaborators(deps);
    const app = createApp(deps, built);
    const mailer = env.SMTP_URL
      ? smtpMailer(env.SMTP_URL, env.ADMISSIONS_MAIL_FROM)
      : dropMailer(logger);
    logger.info("mail transport", { kind: mailer.name });
    const jobs = startBackgroundJobs(
      {
        db,
        logger,
        now: built.now,
        move: built.move,
        mailer,
        delivery: deliveryPolicy(env),
        reminders: reminderSettings(env),
        references: {
          reminderIntervalMs: settings.references.reminderIntervalMs,
          portalUrl: settings.portalUrl,
        },
        webhooks: {
          db,
          logger,
          now: built.now,
          box: built.box,
          allowPrivateTargets: settings.webhooks.allowPrivateTargets,
          policy: settings.webhooks.policy,
          timeoutMs: settings.webhooks.timeoutMs,
        },
      },
      env.ADMISSIONS_JOBS_INTERVAL_MS,
    );
    return {
      app,
      // Bun cuts off anything this large outright (the gateway's limit for /api/v1/*); below it
      // the app answers a problem+json 413: JSON past 256 KiB, a document past 10 MiB.
      maxRequestBodySize: 11 * 1024 * 1024,
      onShutdown: async () => {
        await built.afterResponse.settled();
        await jobs.stop();
        mailer.close();
        await store.close();
        await db.close();
      },
    };
  },
});

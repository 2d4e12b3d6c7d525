/**
 * The Kubernetes manifests, checked offline: no cluster runs here. Every object of the base and
 * of each overlay as kustomize renders it is validated against the Kubernetes schemas
 * (kubernetes-models: types, required fields, enums; it does not reject unknown fields), and
 * each app's Deployment is held to the app itself: its port, its probes (the ones compose's
 * healthchecks use), every variable it sets is one its env.ts declares and accepts, and the
 * runner's security context.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { IDeployment } from "kubernetes-models/apps/v1/Deployment";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";

const root = join(import.meta.dir, "..");
const k8s = join(import.meta.dir, "k8s");
const APPS = ["gateway", "admissions", "leaderboard", "runner", "bench", "web"] as const;
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string } };

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "v1/Service": Service,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Namespace": Namespace,
  "v1/PersistentVolumeClaim": PersistentVolumeClaim,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
};

const parse = (text: string) =>
  [Bun.YAML.parse(text)].flat().filter((doc): doc is K8sObject => doc !== null);

function validateAll(objects: K8sObject[]) {
  for (const object of objects) {
    const Model = MODELS[`${object.apiVersion}/${object.kind}`];
    expect(Model, `${object.apiVersion} ${object.kind} is a kind these checks know`).toBeDefined();
    if (Model) new Model(object as never).validate();
  }
}

const kubectl = Bun.which("kubectl");
function render(overlay: string): K8sObject[] {
  const out = Bun.spawnSync([kubectl ?? "kubectl", "kustomize", join(k8s, "overlays", overlay)], {
    stderr: "pipe",
  });
  expect(out.exitCode, out.stderr.toString()).toBe(0);
  return parse(out.stdout.toString());
}

/** The path a compose healthcheck asks (`fetch('http://127.0.0.1:<port>/path')`). */
async function composeProbe(app: string): Promise<string> {
  const compose = Bun.YAML.parse(await Bun.file(join(root, "docker-compose.yml")).text()) as {
    services: Record<string, { healthcheck: { test: string[] } }>;
  };
  const command = compose.services[app]?.healthcheck.test.join(" ") ?? "";
  return new URL(/http:\/\/[^']+/.exec(command)?.[0] ?? "http://x/none").pathname;
}

const base = readdirSync(join(k8s, "base"))
  .filter((file) => file.endsWith(".yaml") && file !== "kustomization.yaml")
  .flatMap((file) => parse(readFileSync(join(k8s, "base", file), "utf8")));

describe("Kubernetes base manifests", () => {
  test("every object is valid against the Kubernetes schemas", () => validateAll(base));

  describe.each(APPS)("%s", (app) => {
    const deployment = base.find(
      (o) => o.kind === "Deployment" && o.metadata.name === app,
    ) as IDeployment;
    const pod = deployment?.spec?.template.spec;
    const container = pod?.containers[0];

    test("has a Deployment, Service, autoscaler and disruption budget of its own", () => {
      for (const kind of [
        "Deployment",
        "Service",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
      ])
        expect(
          base.some((o) => o.kind === kind && o.metadata.name === app),
          kind,
        ).toBe(true);
    });

    test("listens on the port its env.ts defaults to, probes what compose probes", async () => {
      const { loadEnv } = await import(join(root, "apps", app, "src/env.ts"));
      const port = loadEnv({ ADMISSIONS_JWT_SECRET: "x".repeat(40) })[`${app.toUpperCase()}_PORT`];
      expect(container?.ports?.[0]?.containerPort).toBe(port);
      const probe = await composeProbe(app);
      expect(container?.readinessProbe?.httpGet?.path).toBe(probe);
      expect(container?.startupProbe?.httpGet?.path).toBe(probe);
      expect(container?.livenessProbe?.httpGet?.path).toBeString();
      expect(container?.resources?.requests).toBeDefined();
      expect(container?.resources?.limits).toBeDefined();
    });

    test("every variable it is given is declared and accepted by its env.ts", async () => {
      const module = await import(join(root, "apps", app, "src/env.ts"));
      const schema = Object.values(module).find(
        (value): value is { properties: Record<string, unknown> } =>
          typeof value === "object" && value !== null && "properties" in value,
      );
      const config = base.find((o) => o.kind === "ConfigMap") as unknown as {
        data: Record<string, string>;
      };
      const secrets = container?.envFrom?.some((from) => from.secretRef)
        ? {
            DATABASE_URL: "postgres://u:p@db:5432/platform",
            REDIS_URL: "redis://redis:6379",
            ADMISSIONS_JWT_SECRET: "x".repeat(40),
            // Production's Secret names a mail server (docs/deploy.md); without one it refuses.
            SMTP_URL: "smtp://user:pass@mail.example.org:587",
          }
        : {};
      const own = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value ?? ""]));
      const given = { ...config.data, ...secrets, ...own };
      for (const name of Object.keys({ ...config.data, ...own }))
        expect(Object.keys(schema?.properties ?? {}), `${app} reads ${name}`).toContain(name);
      expect(() => module.loadEnv(given)).not.toThrow();
    });

    test("runs as non-root with a read-only root, no escalation and no capability", () => {
      const security = container?.securityContext;
      expect(security?.runAsNonRoot).toBe(true);
      expect(security?.readOnlyRootFilesystem).toBe(true);
      expect(security?.allowPrivilegeEscalation).toBe(false);
      expect(security?.capabilities?.drop).toEqual(["ALL"]);
      expect(security?.privileged).toBeUndefined();
      expect(security?.capabilities?.add).toBeUndefined();
    });
  });

  test("the runner: its own seccomp profile, an unmasked /proc in a user namespace", () => {
    const runner = base.find(
      (o) => o.kind === "Deployment" && o.metadata.name === "runner",
    ) as IDeployment;
    const security = runner.spec?.template.spec?.containers[0]?.securityContext;
    expect(security?.seccompProfile).toEqual({
      type: "Localhost",
      localhostProfile: "profiles/platform-runner.json",
    });
    expect(security?.procMount).toBe("Unmasked");
    expect(runner.spec?.template.spec?.hostUsers).toBe(false);
  });
});

describe.skipIf(!kubectl)("Kubernetes overlays as kustomize renders them", () => {
  test.each(["dev", "production"])("%s: every object valid, every app there", (overlay) => {
    const objects = render(overlay);
    validateAll(objects);
    for (const app of APPS)
      expect(
        objects.some((o) => o.kind === "Deployment" && o.metadata.name === app),
        app,
      ).toBe(true);
  });
});

/**
 * The Kubernetes manifests, checked offline: no cluster runs here. Both overlays as kustomize
 * renders them are validated against the Kubernetes schemas (kubernetes-models: types, required
 * fields, enums; it does not reject unknown fields), each app's Deployment is held to the app
 * itself (its port, the probes compose uses, every variable it is given declared and accepted by
 * its env.ts), and the platform team's rules (k8s-policy.ts) hold on both, each shown to fail on
 * a copy broken for it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Job } from "kubernetes-models/batch/v1/Job";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { deprecatedFields, type K8sObject, policyViolations } from "./k8s-policy.ts";

const root = join(import.meta.dir, "..");
const k8s = join(import.meta.dir, "k8s");
const APPS = ["gateway", "admissions", "leaderboard", "runner", "bench", "web"] as const;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "batch/v1/Job": Job,
  "v1/Service": Service,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Namespace": Namespace,
  "v1/PersistentVolumeClaim": PersistentVolumeClaim,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "networking.k8s.io/v1/Ingress": Ingress,
};

const parse = (text: string) =>
  [Bun.YAML.parse(text)].flat().filter((doc): doc is K8sObject => doc !== null);

const kubectl = Bun.which("kubectl");
/** kustomize 5 reads `labels`, `patches` with targets and directories under `resources`. */
function kustomizeMajor(): number {
  const out = Bun.spawnSync([kubectl ?? "kubectl", "version", "--client", "-o", "json"]);
  const version = (JSON.parse(out.stdout.toString() || "{}") as { kustomizeVersion?: string })
    .kustomizeVersion;
  return Number(/^v(\d+)/.exec(version ?? "")?.[1] ?? 0);
}

function render(overlay: string): { objects: K8sObject[]; warnings: string } {
  const out = Bun.spawnSync([kubectl ?? "kubectl", "kustomize", join(k8s, "overlays", overlay)], {
    stderr: "pipe",
  });
  expect(out.exitCode, out.stderr.toString()).toBe(0);
  return { objects: parse(out.stdout.toString()), warnings: out.stderr.toString() };
}

/** The path a compose healthcheck asks (`fetch('http://127.0.0.1:<port>/path')`). */
async function composeProbe(app: string): Promise<string> {
  const compose = Bun.YAML.parse(await Bun.file(join(root, "docker-compose.yml")).text()) as {
    services: Record<string, { healthcheck: { test: string[] } }>;
  };
  const command = compose.services[app]?.healthcheck.test.join(" ") ?? "";
  return new URL(/http:\/\/[^']+/.exec(command)?.[0] ?? "http://x/none").pathname;
}

const kustomizations = [...new Bun.Glob("**/kustomization.yaml").scanSync(k8s)];

test("no kustomization uses a deprecated field", () => {
  expect(kustomizations.length).toBeGreaterThanOrEqual(9);
  for (const file of kustomizations) {
    const fields = deprecatedFields(
      Bun.YAML.parse(readFileSync(join(k8s, file), "utf8")) as object,
    );
    expect(fields, file).toEqual([]);
  }
});

describe.skipIf(!kubectl)("the overlays as kustomize renders them", () => {
  test("kubectl's kustomize is v5 or later (Debian 12's kubectl 1.20 has v2)", () => {
    expect(kustomizeMajor()).toBeGreaterThanOrEqual(5);
  });

  const rendered =
    kubectl && kustomizeMajor() >= 5
      ? { dev: render("dev"), production: render("production") }
      : undefined;
  const overlays = ["dev", "production"] as const;

  test.each(overlays)("%s: renders without a warning, every object valid", (overlay) => {
    const { objects, warnings } = rendered?.[overlay] ?? { objects: [], warnings: "" };
    expect(warnings).toBe("");
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(
        Model,
        `${object.apiVersion} ${object.kind} is a kind these checks know`,
      ).toBeDefined();
      if (Model) new Model(object as never).validate();
    }
    for (const app of APPS)
      for (const kind of [
        "Deployment",
        "Service",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
      ])
        expect(
          objects.some((o) => o.kind === kind && o.metadata.name === app),
          `${kind} ${app}`,
        ).toBe(true);
  });

  test.each(overlays)("%s: every rule of the policy holds", (overlay) => {
    expect(policyViolations(rendered?.[overlay]?.objects ?? [])).toEqual([]);
  });

  describe.each(APPS)("%s", (app) => {
    const objects = rendered?.dev.objects ?? [];
    const deployment = objects.find((o) => o.kind === "Deployment" && o.metadata.name === app);
    const container = deployment?.spec.template.spec.containers[0];

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

    test("every variable it is given (config, its Secret, its own) is declared and accepted", async () => {
      const module = await import(join(root, "apps", app, "src/env.ts"));
      const schema = Object.values(module).find(
        (value): value is { properties: Record<string, unknown> } =>
          typeof value === "object" && value !== null && "properties" in value,
      );
      const namespace = deployment?.metadata.namespace;
      const config = objects.find(
        (o) => o.kind === "ConfigMap" && o.metadata.namespace === namespace,
      );
      const secretName = container?.envFrom?.find((from: { secretRef?: object }) => from.secretRef)
        ?.secretRef?.name;
      const secret = objects.find((o) => o.kind === "Secret" && o.metadata.name === secretName);
      const secrets = Object.fromEntries(
        Object.entries((secret?.data ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          atob(v),
        ]),
      );
      const own = Object.fromEntries(
        (container?.env ?? []).map((e: { name: string; value?: string }) => [
          e.name,
          e.value ?? "",
        ]),
      );
      const given = { ...config?.data, ...secrets, ...own };
      for (const name of Object.keys(given))
        expect(Object.keys(schema?.properties ?? {}), `${app} reads ${name}`).toContain(name);
      expect(() => module.loadEnv(given)).not.toThrow();
    });
  });

  test("docs/deploy.md's table of what each app gets is what the manifests give", async () => {
    const page = await Bun.file(join(root, "docs/deploy.md")).text();
    const section = page.split("## What each app gets")[1]?.split("\n\n")[1] ?? "";
    const rows = section
      .split("\n")
      .slice(2)
      .map((line) => line.split("|").map((cell) => cell.trim().replaceAll("`", "")));
    expect(rows.map((row) => row[1])).toEqual([...APPS]);
    const objects = rendered?.production.objects ?? [];
    // "128 → 256 MiB", "1 → 2 GiB": both quantities in the limit's unit.
    const amount = (q: string) => Number.parseInt(q, 10);
    for (const [, app, port, ready, live, resources, replicas, secret] of rows) {
      const d = objects.find((o) => o.kind === "Deployment" && o.metadata.name === app);
      const c = d?.spec.template.spec.containers[0];
      const hpa = objects.find(
        (o) => o.kind === "HorizontalPodAutoscaler" && o.metadata.name === app,
      );
      expect(port, `${app} port`).toBe(String(c?.ports[0].containerPort));
      expect(ready, `${app} readiness`).toBe(c?.readinessProbe.httpGet.path);
      expect(live, `${app} liveness`).toBe(c?.livenessProbe.httpGet.path);
      const { requests, limits } = c?.resources ?? {};
      const unit = limits.memory.endsWith("Gi") ? "GiB" : "MiB";
      const memory = `${amount(requests.memory)} → ${amount(limits.memory)} ${unit}`;
      expect(resources, `${app} resources`).toBe(`${requests.cpu} → ${limits.cpu}, ${memory}`);
      expect(replicas, `${app} replicas`).toBe(`${hpa?.spec.minReplicas}–${hpa?.spec.maxReplicas}`);
      const ref = c?.envFrom?.find((from: { secretRef?: { name: string } }) => from.secretRef)
        ?.secretRef?.name;
      expect(secret, `${app} secret`).toBe(ref ?? "none");
    }
  });

  test("the runner: its own seccomp profile, an unmasked /proc in a user namespace", () => {
    const runner = rendered?.production.objects.find(
      (o) => o.kind === "Deployment" && o.metadata.name === "runner",
    );
    const security = runner?.spec.template.spec.containers[0]?.securityContext;
    expect(security?.seccompProfile).toEqual({
      type: "Localhost",
      localhostProfile: "profiles/platform-runner.json",
    });
    expect(security?.procMount).toBe("Unmasked");
    expect(runner?.spec.template.spec.hostUsers).toBe(false);
  });

  describe("the policy check fails on a manifest broken for each rule", () => {
    const broken = (change: (objects: K8sObject[]) => void) => {
      const objects = structuredClone(rendered?.production.objects ?? []);
      change(objects);
      return policyViolations(objects);
    };
    const find = (objects: K8sObject[], kind: string, name: string) => {
      const found = objects.find((o) => o.kind === kind && o.metadata.name.startsWith(name));
      if (!found) throw new Error(`no ${kind} ${name}`);
      return found;
    };
    const pod = (objects: K8sObject[], name: string) =>
      find(objects, "Deployment", name).spec.template.spec;

    test.each([
      [
        "the runner reads admissions' Secret",
        (o: K8sObject[]) => {
          pod(o, "runner").containers[0].envFrom[1].secretRef.name = "admissions-secrets";
        },
        "Deployment platform-runner/runner reads Secret admissions-secrets, not its own",
      ],
      [
        "the runner's Secret holds the JWT key",
        (o: K8sObject[]) => {
          o.push({
            apiVersion: "v1",
            kind: "Secret",
            metadata: { name: "runner-secrets", namespace: "platform-runner" },
            data: { ADMISSIONS_JWT_SECRET: "eA==" },
          });
        },
        "Secret platform-runner/runner-secrets holds ADMISSIONS_JWT_SECRET, which runner may not",
      ],
      [
        "replicas beside the autoscaler",
        (o: K8sObject[]) => {
          find(o, "Deployment", "web").spec.replicas = 2;
        },
        "Deployment platform/web sets replicas beside HorizontalPodAutoscaler platform/web",
      ],
      [
        "the apps' namespace not enforcing restricted",
        (o: K8sObject[]) => {
          find(o, "Namespace", "platform").metadata.labels["pod-security.kubernetes.io/enforce"] =
            "privileged";
        },
        "Deployment platform/gateway is in a namespace not enforcing restricted",
      ],
      [
        "an app may escalate",
        (o: K8sObject[]) => {
          pod(o, "bench").containers[0].securityContext.allowPrivilegeEscalation = true;
        },
        "Deployment platform/bench: bench may escalate",
      ],
      [
        "another app in the runner's namespace",
        (o: K8sObject[]) => {
          find(o, "Deployment", "web").metadata.namespace = "platform-runner";
        },
        "Deployment platform-runner/web shares the runner's namespace",
      ],
      [
        "an image at latest",
        (o: K8sObject[]) => {
          pod(o, "leaderboard").containers[0].image =
            "registry.example.com/platform/leaderboard:latest";
        },
        "Deployment platform/leaderboard: leaderboard image registry.example.com/platform/leaderboard:latest is no version or digest",
      ],
      [
        "no default-deny",
        (o: K8sObject[]) => {
          const deny = o.findIndex(
            (p) => p.metadata.name === "default-deny" && p.metadata.namespace === "platform",
          );
          o.splice(deny, 1);
        },
        "namespace platform has no default-deny ingress and egress policy",
      ],
      [
        "a flow an app does not need",
        (o: K8sObject[]) => {
          find(o, "NetworkPolicy", "redis-egress").spec.egress[0].ports.push({
            protocol: "TCP",
            port: 5432,
          });
        },
        "Deployment platform/leaderboard may connect to ports 5432 it does not need",
      ],
      [
        "every replica migrating at start",
        (o: K8sObject[]) => {
          const env = pod(o, "admissions").containers[0].env;
          env.find((e: { name: string }) => e.name === "ADMISSIONS_MIGRATE_ON_START").value =
            "true";
        },
        "admissions replicas migrate at start",
      ],
      [
        "no migration Job",
        (o: K8sObject[]) => {
          o.splice(o.indexOf(find(o, "Job", "admissions-migrate")), 1);
        },
        "no Job applies the migrations",
      ],
      [
        "an Ingress without TLS",
        (o: K8sObject[]) => {
          delete find(o, "Ingress", "gateway").spec.tls;
        },
        "no Ingress with TLS (cert-manager) routes to the gateway",
      ],
      [
        "no topology spread",
        (o: K8sObject[]) => {
          delete pod(o, "gateway").topologySpreadConstraints;
        },
        "Deployment platform/gateway does not spread its pods over nodes",
      ],
    ])("%s", (_, change, violation) => {
      expect(broken(change)).toContain(violation);
    });

    test("a deprecated kustomize field", () => {
      expect(deprecatedFields({ bases: ["../base"], commonLabels: {}, resources: [] })).toEqual([
        "bases",
        "commonLabels",
      ]);
    });
  });
});

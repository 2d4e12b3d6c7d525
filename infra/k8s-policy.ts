/**
 * The rules a platform team holds the Kubernetes manifests to (docs/deploy.md), as one function
 * over the objects an overlay renders: each broken rule is one line saying which object and why.
 * infra/k8s.test.ts runs it on both overlays and on a broken copy per rule.
 */

// biome-ignore lint/suspicious/noExplicitAny: rendered YAML, read defensively field by field
type Obj = Record<string, any>;
export type K8sObject = Obj & { apiVersion: string; kind: string; metadata: Obj };

/** What each app's Secret may hold; the runner nothing of the database, JWT or payments. */
export const SECRET_KEYS: Record<string, readonly string[]> = {
  admissions: [
    "DATABASE_URL",
    "REDIS_URL",
    "ADMISSIONS_JWT_SECRET",
    "ADMISSIONS_MFA_KEY",
    "ADMISSIONS_SIGNING_KEY",
    "SMTP_URL",
    "ADMISSIONS_MAIL_DROP",
    "ADMISSIONS_STRIPE_SECRET_KEY",
    "ADMISSIONS_STRIPE_WEBHOOK_SECRET",
    "ADMISSIONS_S3_ACCESS_KEY_ID",
    "ADMISSIONS_S3_SECRET_ACCESS_KEY",
  ],
  leaderboard: ["REDIS_URL"],
  runner: ["REDIS_URL"],
  bench: ["REDIS_URL"],
};

/** The ports each app may open connections to (53: the cluster DNS); nothing else. */
export const EGRESS_PORTS: Record<string, readonly number[]> = {
  gateway: [53, 3001, 3002, 3003, 3004, 3005],
  admissions: [53, 443, 465, 587, 5432, 6379],
  "admissions-migrate": [53, 443, 465, 587, 5432, 6379],
  leaderboard: [53, 6379],
  bench: [53, 6379],
  runner: [53, 6379],
  web: [53],
};

const DEPRECATED_FIELDS = [
  "bases",
  "commonLabels",
  "patchesJson6902",
  "patchesStrategicMerge",
  "vars",
  "imageTags",
];
const IMMUTABLE_IMAGE = /(:\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?|@sha256:[0-9a-f]{64})$/;
const RUNNER = "runner";

const nameOf = (o: Obj) => `${o.kind} ${o.metadata?.namespace ?? "-"}/${o.metadata?.name}`;
const appOf = (pod: Obj): string => pod.metadata?.labels?.["app.kubernetes.io/name"] ?? "";

/** Every workload's pod template, with the object it belongs to. */
function podsOf(objects: K8sObject[]) {
  return objects
    .filter((o) => ["Deployment", "Job", "StatefulSet", "DaemonSet"].includes(o.kind))
    .map((o) => ({ owner: o, pod: o.spec?.template as Obj, namespace: o.metadata.namespace }));
}
const containersOf = (pod: Obj): Obj[] => [
  ...(pod.spec?.initContainers ?? []),
  ...(pod.spec?.containers ?? []),
];

/** Pod Security's `restricted` profile, container by container; `except` for the runner. */
function restrictedProblems(pod: Obj, except: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  const spec = pod.spec ?? {};
  if (spec.hostNetwork || spec.hostPID || spec.hostIPC) problems.push("uses a host namespace");
  if ((spec.volumes ?? []).some((v: Obj) => v.hostPath)) problems.push("mounts a hostPath");
  for (const c of containersOf(pod)) {
    const s = { ...spec.securityContext, ...c.securityContext };
    const seccomp = s.seccompProfile?.type;
    if (s.privileged) problems.push(`${c.name} is privileged`);
    if (s.allowPrivilegeEscalation !== false) problems.push(`${c.name} may escalate`);
    if (s.runAsNonRoot !== true) problems.push(`${c.name} may run as root`);
    if (!(s.capabilities?.drop ?? []).includes("ALL"))
      problems.push(`${c.name} keeps capabilities`);
    if ((s.capabilities?.add ?? []).some((cap: string) => cap !== "NET_BIND_SERVICE"))
      problems.push(`${c.name} adds capabilities`);
    if (seccomp !== "RuntimeDefault" && seccomp !== "Localhost")
      problems.push(`${c.name} has no seccomp profile`);
    if (s.procMount && s.procMount !== "Default" && !except.has("procMount"))
      problems.push(`${c.name} unmasks /proc`);
    if (s.appArmorProfile?.type === "Unconfined" && !except.has("appArmor"))
      problems.push(`${c.name} is not confined by AppArmor`);
  }
  return problems;
}

/** Pods a policy's podSelector picks (matchLabels and `In` expressions, as these use). */
function selects(selector: Obj | undefined, labels: Obj): boolean {
  if (!selector) return false;
  const exact = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const expressions = (selector.matchExpressions ?? []).every(
    (e: Obj) => e.operator === "In" && e.values.includes(labels[e.key]),
  );
  return exact && expressions;
}

/** Every rule broken by the rendered objects of one overlay; empty when all hold. */
export function policyViolations(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const namespaces = new Map(
    objects.filter((o) => o.kind === "Namespace").map((o) => [o.metadata.name, o]),
  );
  const policies = objects.filter((o) => o.kind === "NetworkPolicy");

  // A Secret per app, holding only what that app reads.
  for (const { owner, pod } of podsOf(objects)) {
    const app = appOf(pod).replace(/-migrate$/, "");
    const own = new RegExp(`^${app}-secrets(-[a-z0-9]{10})?$`);
    const refs = containersOf(pod).flatMap((c) => [
      ...(c.envFrom ?? []).map((e: Obj) => e.secretRef?.name).filter(Boolean),
      ...(c.env ?? []).map((e: Obj) => e.valueFrom?.secretKeyRef?.name).filter(Boolean),
    ]);
    for (const ref of refs)
      if (!own.test(ref)) out.push(`${nameOf(owner)} reads Secret ${ref}, not its own`);
  }
  for (const secret of objects.filter((o) => o.kind === "Secret")) {
    const app = /^(.+)-secrets(-[a-z0-9]{10})?$/.exec(secret.metadata.name)?.[1] ?? "";
    const allowed = SECRET_KEYS[app] ?? [];
    for (const key of Object.keys({ ...secret.data, ...secret.stringData })) {
      if (!allowed.includes(key))
        out.push(`${nameOf(secret)} holds ${key}, which ${app || "no app"} may not`);
    }
  }

  // No replicas where an autoscaler scales.
  for (const hpa of objects.filter((o) => o.kind === "HorizontalPodAutoscaler")) {
    const target = objects.find(
      (o) =>
        o.kind === hpa.spec?.scaleTargetRef?.kind &&
        o.metadata.name === hpa.spec?.scaleTargetRef?.name,
    );
    if (target?.spec?.replicas !== undefined)
      out.push(`${nameOf(target)} sets replicas beside ${nameOf(hpa)}`);
  }

  // Pod Security: restricted enforced for every app but the runner, alone in its namespace.
  for (const { owner, pod, namespace } of podsOf(objects)) {
    const enforce =
      namespaces.get(namespace)?.metadata?.labels?.["pod-security.kubernetes.io/enforce"];
    const isRunner = appOf(pod) === RUNNER;
    if (!isRunner && enforce !== "restricted")
      out.push(`${nameOf(owner)} is in a namespace not enforcing restricted`);
    const except = isRunner ? new Set(["procMount", "appArmor"]) : new Set<string>();
    for (const problem of restrictedProblems(pod, except)) out.push(`${nameOf(owner)}: ${problem}`);
  }
  const runnerNamespaces = new Set(
    podsOf(objects)
      .filter((p) => appOf(p.pod) === RUNNER)
      .map((p) => p.namespace),
  );
  for (const { owner, pod, namespace } of podsOf(objects)) {
    if (appOf(pod) !== RUNNER && runnerNamespaces.has(namespace))
      out.push(`${nameOf(owner)} shares the runner's namespace`);
  }

  // Immutable images, set by the overlay.
  for (const { owner, pod } of podsOf(objects)) {
    for (const c of containersOf(pod)) {
      if (!IMMUTABLE_IMAGE.test(c.image ?? ""))
        out.push(`${nameOf(owner)}: ${c.name} image ${c.image} is no version or digest`);
    }
  }

  // Default-deny both ways in every namespace with pods, then only each app's own flows.
  for (const namespace of new Set(podsOf(objects).map((p) => p.namespace))) {
    const denies = policies.some(
      (p) =>
        p.metadata.namespace === namespace &&
        Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
        ["Ingress", "Egress"].every((t) => p.spec?.policyTypes?.includes(t)) &&
        !p.spec?.ingress &&
        !p.spec?.egress,
    );
    if (!denies) out.push(`namespace ${namespace} has no default-deny ingress and egress policy`);
  }
  for (const { owner, pod, namespace } of podsOf(objects)) {
    const app = appOf(pod);
    const mine = policies.filter(
      (p) =>
        p.metadata.namespace === namespace &&
        selects(p.spec?.podSelector, pod.metadata?.labels ?? {}),
    );
    const ports = new Set<number>();
    for (const rule of mine.flatMap((p) => p.spec?.egress ?? [])) {
      if (!rule.ports) out.push(`${nameOf(owner)} may connect to any port`);
      for (const port of rule.ports ?? []) ports.add(Number(port.port));
    }
    const expected = EGRESS_PORTS[app] ?? [];
    const extra = [...ports].filter((p) => !expected.includes(p));
    if (extra.length > 0)
      out.push(`${nameOf(owner)} may connect to ports ${extra.join(", ")} it does not need`);
    const openIngress = mine.flatMap((p) => p.spec?.ingress ?? []).some((rule: Obj) => !rule.from);
    if (openIngress && app !== "gateway") out.push(`${nameOf(owner)} takes traffic from anywhere`);
  }

  // Migrations once, in a Job; the replicas wait for it.
  const admissions = objects.find(
    (o) => o.kind === "Deployment" && o.metadata.name === "admissions",
  );
  if (admissions) {
    const pod = admissions.spec.template.spec;
    const migrateOnStart = pod.containers[0]?.env?.find(
      (e: Obj) => e.name === "ADMISSIONS_MIGRATE_ON_START",
    )?.value;
    if (migrateOnStart !== "false") out.push("admissions replicas migrate at start");
    const waits = (pod.initContainers ?? []).some((c: Obj) =>
      c.command?.join(" ").includes("migrate.ts --wait"),
    );
    if (!waits) out.push("admissions replicas do not wait for the migrations");
    const job = objects.some(
      (o) =>
        o.kind === "Job" &&
        o.spec?.template?.spec?.containers?.[0]?.command?.join(" ").endsWith("src/cli/migrate.ts"),
    );
    if (!job) out.push("no Job applies the migrations");
  }

  // An Ingress with TLS in front of the gateway, its certificate from cert-manager.
  const ingresses = objects.filter((o) => o.kind === "Ingress");
  const tlsToGateway = ingresses.some((i) => {
    const hosts = new Set((i.spec?.tls ?? []).flatMap((t: Obj) => (t.secretName ? t.hosts : [])));
    const rules = i.spec?.rules ?? [];
    const toGateway = rules.some((r: Obj) =>
      r.http?.paths?.some((p: Obj) => p.backend?.service?.name === "gateway"),
    );
    return (
      toGateway &&
      rules.length > 0 &&
      rules.every((r: Obj) => hosts.has(r.host)) &&
      i.metadata.annotations?.["cert-manager.io/cluster-issuer"]
    );
  });
  if (!tlsToGateway) out.push("no Ingress with TLS (cert-manager) routes to the gateway");

  // Replicas spread over nodes.
  for (const d of objects.filter((o) => o.kind === "Deployment")) {
    const keys = (d.spec.template.spec.topologySpreadConstraints ?? []).map(
      (c: Obj) => c.topologyKey,
    );
    if (!keys.includes("kubernetes.io/hostname"))
      out.push(`${nameOf(d)} does not spread its pods over nodes`);
  }
  return out;
}

/** The fields kustomize deprecates, used in one kustomization.yaml. */
export function deprecatedFields(kustomization: Obj): string[] {
  return DEPRECATED_FIELDS.filter((field) => field in kustomization);
}

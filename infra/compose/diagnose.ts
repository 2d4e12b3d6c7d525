/**
 * What the compose check prints when the stack does not come up, so a failure on a CI machine
 * nobody can log in to still says why: each container's last healthcheck outputs (a 503 names
 * the failing dependency), and, from inside each app container, whether the backing services'
 * names resolve and their ports accept a connection (the network, or the app?).
 */
import { sh } from "../../scripts/process.ts";

type Env = Record<string, string | undefined>;
type Health = { Status?: string; Log?: { ExitCode: number; Output: string }[] };
type Inspected = {
  Name: string;
  Config: { Image: string };
  State: { Running: boolean; Health?: Health; Healthcheck?: Health };
};

/** Run inside an app container (its image has Bun): DNS and TCP to each backing service. */
const PROBE = `
const net = require("node:net");
for (const [host, port] of [["redis", 6379], ["postgres", 5432]]) {
  const started = performance.now();
  let dns;
  try { dns = (await Bun.dns.lookup(host)).map((a) => a.address).join(","); }
  catch (error) { dns = "failed: " + error.message; }
  const resolved = performance.now();
  const tcp = await new Promise((done) => {
    const socket = net.connect(port, host);
    const timer = setTimeout(() => { socket.destroy(); done("no connection within 2 s"); }, 2000);
    socket.on("connect", () => { clearTimeout(timer); socket.end(); done("connected"); });
    socket.on("error", (error) => { clearTimeout(timer); done(error.message); });
  });
  const dnsMs = Math.round(resolved - started);
  const tcpMs = Math.round(performance.now() - resolved);
  console.log(JSON.stringify({ host, dns, dnsMs, tcp, tcpMs }));
}`;

type Probe = { host: string; dns: string; dnsMs: number; tcp: string; tcpMs: number };

/** A name that did not resolve, resolved slowly, or a port that did not answer. */
const networkAtFault = (probe: Probe) =>
  probe.dns.startsWith("failed") || probe.dnsMs >= 1_000 || probe.tcp !== "connected";

export type Diagnosis = {
  text: string;
  /** Some app container could not resolve or reach Redis or PostgreSQL: the network's fault. */
  networkTrouble: boolean;
};

export async function diagnose(project: string, env: Env): Promise<Diagnosis> {
  const ids = (
    await sh(["podman", "ps", "-aq", "--filter", `label=com.docker.compose.project=${project}`], {
      env,
    })
  ).stdout
    .split("\n")
    .filter(Boolean);
  if (ids.length === 0)
    return { text: "compose: no containers to diagnose", networkTrouble: false };
  let networkTrouble = false;
  const inspected = JSON.parse(
    (await sh(["podman", "inspect", ...ids], { env })).stdout || "[]",
  ) as Inspected[];
  const reports = await Promise.all(
    inspected.map(async ({ Name, Config, State }) => {
      const health = State.Health ?? State.Healthcheck;
      const lines = [`compose: ${Name}: ${health?.Status ?? "no healthcheck"}`];
      for (const entry of (health?.Log ?? []).slice(-3)) {
        lines.push(`  check exit ${entry.ExitCode}: ${entry.Output.trim().slice(0, 600)}`);
      }
      if (State.Running && Config.Image.includes(`${project}_`)) {
        const probe = await sh(["podman", "exec", Name, "bun", "-e", PROBE], { env });
        for (const line of (probe.stdout + probe.stderr).trim().split("\n")) {
          let seen: Probe;
          try {
            seen = JSON.parse(line) as Probe;
          } catch {
            lines.push(`  from inside: ${line}`);
            continue;
          }
          networkTrouble ||= networkAtFault(seen);
          lines.push(
            `  from inside: ${seen.host}: dns ${seen.dns} (${seen.dnsMs} ms), tcp ${seen.tcp} (${seen.tcpMs} ms)`,
          );
        }
      }
      return lines.join("\n");
    }),
  );
  return { text: reports.join("\n"), networkTrouble };
}

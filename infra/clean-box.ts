/**
 * The README's commands, as a new user runs them, in a clean box (CI, infra/ci.ts): a container made from plain
 * Debian (the locally built debian:bookworm-slim) with only Bun added — no bubblewrap, Redis or
 * PostgreSQL. The committed tree (`git archive HEAD`) is copied in; then, as root:
 *
 *   bun install
 *   bun run start   (until the gateway reports every app up, runner included; then Ctrl-C)
 *   bun run check   (CHECK_COMPOSE=host: the compose stack is run on the host, see .ci/run)
 *
 * The box is a whole machine to its user, so it runs privileged (the runner's sandbox creates
 * namespaces, PostgreSQL and Redis run inside); no process or memory limits beyond the host's.
 * Its output is printed as it comes; what the check left in reports/ (its JUnit reports, turbo's
 * run summary, check.json) is copied out for CI to count (scripts/reports.ts).
 */
import { chmodSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must, sh } from "../scripts/process.ts";
import { BUN_IMAGE, buildBaseImages } from "./images/build.ts";
import { podmanEnv } from "./podman.ts";

const root = join(import.meta.dir, "..");
const BOX = "localhost/platform-clean-box:latest";
const env = podmanEnv();

/** What the new user types, and a wait for the started stack to answer before Ctrl-C. */
const SCRIPT = `
set -eu
tar -xf /root/tree.tar -C /root && rm /root/tree.tar
cd /root/platform
echo "box: $(. /etc/os-release; echo "$PRETTY_NAME"), bun $(bun --version)"
for tool in bwrap redis-server pg_ctlcluster; do
  if command -v "$tool" >/dev/null; then echo "box: $tool is preinstalled" >&2; exit 1; fi
done
t0=$(date +%s)
bun install
echo "box: bun install took $(( $(date +%s) - t0 )) s"
bun run start > /tmp/start.log 2>&1 &
started=$!
if ! bun -e '
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const health = await (await fetch("http://127.0.0.1:3000/gateway/health")).json();
      const up = ["admissions", "leaderboard", "runner", "bench"].filter((app) => health.upstreams?.[app]?.status === "up");
      if (up.length === 4) {
        const run = await fetch("http://127.0.0.1:3000/api/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: "console.log(6 * 7)" }) });
        const body = await run.json();
        console.log("box: bun run start: every app up; /api/run answered", run.status, JSON.stringify(body.output));
        process.exit(run.status === 200 && body.output === "42\\n" ? 0 : 1);
      }
    } catch {}
    await Bun.sleep(500);
  }
  console.log("box: bun run start did not bring every app up in 120 s");
  process.exit(1);
'; then
  cat /tmp/start.log
  exit 1
fi
# Ctrl-C in a terminal; a script's background job ignores SIGINT, so SIGTERM (handled the same).
kill -TERM "$started"
wait "$started" || true
grep '^setup:' /tmp/start.log || true
echo "box: bun install and bun run start took $(( $(date +%s) - t0 )) s"
CI=true CHECK_COMPOSE=host bun run check
`;

/** Copies the host's kubectl into the build context if its kustomize is 5 or later. */
async function copyKubectl(work: string): Promise<boolean> {
  const kubectl = Bun.which("kubectl");
  if (!kubectl) return false;
  const out = Bun.spawnSync([kubectl, "version", "--client", "-o", "json"]).stdout.toString();
  let version = "";
  try {
    version = (JSON.parse(out) as { kustomizeVersion?: string }).kustomizeVersion ?? "";
  } catch {}
  if (Number(/^v(\d+)/.exec(version)?.[1] ?? 0) < 5) return false;
  await Bun.write(join(work, "kubectl"), Bun.file(realpathSync(kubectl)));
  chmodSync(join(work, "kubectl"), 0o755);
  return true;
}

async function boxImage(work: string) {
  await Bun.write(
    join(work, "Containerfile"),
    [
      "# Plain Debian and Bun: what a new user's machine has before the README's commands.",
      "FROM docker.io/library/debian:bookworm-slim",
      // As Bun's installers leave it: the binary, and bunx beside it.
      `COPY --from=${BUN_IMAGE} /usr/local/bin/bun /usr/local/bin/bun`,
      "RUN ln -s bun /usr/local/bin/bunx",
      // This machine's outbound TLS is re-signed by a proxy its own CA bundle trusts.
      "COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt",
      "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt",
      // The host's kubectl when it renders the overlays (kustomize 5; Debian's cannot): so the
      // box's check renders them and runs the Kubernetes policy check as the host would.
      ...((await copyKubectl(work)) ? ["COPY kubectl /usr/local/bin/kubectl"] : []),
      "",
    ].join("\n"),
  );
  await Bun.write(
    join(work, "ca-certificates.crt"),
    Bun.file("/etc/ssl/certs/ca-certificates.crt"),
  );
  await must(["podman", "build", "--quiet", "--pull=never", "-t", BOX, work], { env });
}

/**
 * Runs the box; its reports/ folder is copied to `reportsTo/reports` (only README.md in it when
 * the check never ran). Returns the box's exit code: the check's, or the step that failed first.
 */
export async function cleanBox(reportsTo: string): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), "platform-box-"));
  const name = `platform-clean-box-${process.pid}`;
  try {
    await buildBaseImages();
    await boxImage(work);
    const tree = join(work, "tree.tar");
    await must(["git", "archive", "--format=tar", "--prefix=platform/", "-o", tree, "HEAD"], {
      cwd: root,
    });
    await must(
      [
        "podman",
        "create",
        "--name",
        name,
        "--privileged",
        "--pids-limit=-1",
        "--shm-size=1g",
        "-w",
        "/root",
        BOX,
        "sh",
        "-c",
        SCRIPT,
      ],
      { env },
    );
    await must(["podman", "cp", tree, `${name}:/root/tree.tar`], { env });
    const ran = Bun.spawn(["podman", "start", "--attach", name], {
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    const code = await ran.exited;
    await sh(["podman", "cp", `${name}:/root/platform/reports`, reportsTo], { env });
    return code;
  } finally {
    await sh(["podman", "rm", "-f", name], { env });
    rmSync(work, { recursive: true, force: true });
  }
}

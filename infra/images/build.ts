#!/usr/bin/env bun
/**
 * The base images the Dockerfiles and docker-compose.yml name, built on this machine because
 * no registry can be pulled from here: the same names, so the same files work unchanged with
 * Docker and the official images.
 *
 * - debian:bookworm-slim (also debian:12): a minbase Debian root filesystem from Debian's
 *   packages (mmdebstrap, merged /usr), imported.
 * - oven/bun:<version>-slim: that, plus Bun from the npm package @oven/bun-linux-x64 at the
 *   pinned version (integrity checked against the registry's), and a `bun` user.
 * - postgres:15 and redis:7: that, plus Debian's packages, with entrypoints honouring the
 *   official images' environment contract (postgres.Containerfile, redis.Containerfile).
 *
 * An image already present is kept (`--force` rebuilds). Needs root, podman, runc, mmdebstrap.
 *
 *   bun infra/images/build.ts [--force]
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must, sh } from "../../scripts/process.ts";
import { podmanEnv } from "../podman.ts";

const root = join(import.meta.dir, "../..");
const BUN_VERSION = (
  (await Bun.file(join(root, "package.json")).json()) as { packageManager: string }
).packageManager.replace("bun@", "");
const DEBIAN = "docker.io/library/debian:bookworm-slim";
const MIRRORS = [
  "deb http://deb.debian.org/debian bookworm main",
  "deb http://deb.debian.org/debian bookworm-updates main",
  "deb http://deb.debian.org/debian-security bookworm-security main",
];

const SLIM = [
  "path-exclude=/usr/share/man/*",
  "path-exclude=/usr/share/doc/*",
  "path-include=/usr/share/doc/*/copyright",
  "path-exclude=/usr/share/info/*",
  "path-exclude=/usr/share/locale/*",
  "path-exclude=/usr/share/lintian/*",
];

export const BUN_IMAGE = `docker.io/oven/bun:${BUN_VERSION}-slim`;

const APT_CLEAN = [
  'Dir::Cache::pkgcache "";',
  'Dir::Cache::srcpkgcache "";',
  'Acquire::Languages "none";',
  'APT::AutoRemove::SuggestsImportant "false";',
]
  .map((line) => `'${line}'`)
  .join(" ");

const env = podmanEnv();
const say = (line: string) => console.log(`images: ${line}`);

async function exists(image: string): Promise<boolean> {
  return (await sh(["podman", "image", "exists", image], { env })).code === 0;
}

async function once(image: string, force: boolean, build: () => Promise<void>) {
  if (!force && (await exists(image))) return say(`${image} present`);
  const started = performance.now();
  await build();
  const size = (
    await must(["podman", "image", "inspect", "--format", "{{.Size}}", image], { env })
  ).trim();
  const mb = (Number(size) / 1e6).toFixed(0);
  say(`${image} built in ${((performance.now() - started) / 1000).toFixed(1)} s, ${mb} MB`);
}

async function debian(work: string) {
  const tar = join(work, "debian.tar");
  await must(
    [
      "mmdebstrap",
      "--quiet",
      "--variant=minbase",
      "--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr",
      // As Debian's own -slim images: no manuals, documentation or translations.
      ...SLIM.map((rule) => `--dpkgopt=${rule}`),
      // As Debian's images: apt keeps no package caches (else every `apt-get install` layer
      // carries ~77 MB of them) and no translations.
      `--customize-hook=printf '%s\\n' ${APT_CLEAN} > "$1/etc/apt/apt.conf.d/docker-clean"`,
      '--customize-hook=rm -f "$1"/var/cache/apt/*.bin',
      "bookworm",
      tar,
      ...MIRRORS,
    ],
    { env },
  );
  await must(["podman", "import", "--quiet", tar, DEBIAN], { env });
  await must(["podman", "tag", DEBIAN, "docker.io/library/debian:12"], { env });
}

/** Bun's own binary from the npm registry, checked against the registry's sha512 integrity. */
async function bunBinary(work: string): Promise<string> {
  const meta = (await (
    await fetch(`https://registry.npmjs.org/@oven/bun-linux-x64/${BUN_VERSION}`)
  ).json()) as { dist: { tarball: string; integrity: string } };
  const tarball = new Uint8Array(await (await fetch(meta.dist.tarball)).arrayBuffer());
  const digest = `sha512-${new Bun.CryptoHasher("sha512").update(tarball).digest("base64")}`;
  if (digest !== meta.dist.integrity) throw new Error(`bun tarball integrity mismatch: ${digest}`);
  const tgz = join(work, "bun.tgz");
  await Bun.write(tgz, tarball);
  await must(["tar", "-xzf", tgz, "-C", work, "package/bin/bun"]);
  return join(work, "package/bin/bun");
}

async function build(image: string, containerfile: string, context: string) {
  await must(
    ["podman", "build", "--quiet", "--pull=never", "-t", image, "-f", containerfile, context],
    { env },
  );
}

/** Builds whichever base image is missing (all of them with `force`). */
export async function buildBaseImages(force = false) {
  const work = mkdtempSync(join(tmpdir(), "platform-images-"));
  const timed = (image: string, build: () => Promise<void>) => once(image, force, build);
  try {
    await timed(DEBIAN, () => debian(work));
    await timed(BUN_IMAGE, async () => {
      copyFileSync(await bunBinary(work), join(work, "bun"));
      copyFileSync("/etc/ssl/certs/ca-certificates.crt", join(work, "ca-certificates.crt"));
      copyFileSync(join(import.meta.dir, "bun.Containerfile"), join(work, "Containerfile"));
      await build(BUN_IMAGE, join(work, "Containerfile"), work);
    });
    for (const [image, name] of [
      ["docker.io/library/postgres:15", "postgres"],
      ["docker.io/library/redis:7", "redis"],
    ] as const) {
      await timed(image, () =>
        build(image, join(import.meta.dir, `${name}.Containerfile`), import.meta.dir),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) await buildBaseImages(process.argv.includes("--force"));

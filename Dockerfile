# One image per app, from this one file (the five differ only in which app they hold):
#   docker build --build-arg APP=runner -t platform-runner .
# APP is a folder under apps/. System packages an app needs at run time are listed in its
# package.json ("systemPackages"; the runner's bubblewrap). Run the runner with the security
# options in docs/security.md ("Container"); docker-compose.yml has them.
ARG BUN_VERSION=1.4.4
FROM oven/bun:${BUN_VERSION}-slim AS base
WORKDIR /repo

# Only this app and the workspace packages it depends on (turbo's Docker pruning).
FROM base AS prune
ARG APP
COPY . .
RUN test -d "apps/${APP}" || { echo "build-arg APP must name a folder under apps/" >&2; exit 1; }
RUN bunx turbo@2.11.11 prune "@platform/${APP}" --docker

# Dependencies first, from the pruned manifests and lockfile, so code edits keep this layer cached.
FROM base AS install
COPY --from=prune /repo/out/json/ .
RUN bun install --frozen-lockfile --production --ignore-scripts
COPY --from=prune /repo/out/full/ .

FROM base AS run
ARG APP
COPY --from=prune /repo/out/json/apps/${APP}/package.json /tmp/app.json
RUN packages="$(bun -e 'console.log((require("/tmp/app.json").systemPackages ?? []).join(" "))')" \
  && if [ -n "$packages" ]; then \
    apt-get update \
    && apt-get install -y --no-install-recommends $packages \
    && rm -rf /var/lib/apt/lists/*; \
  fi \
  && rm /tmp/app.json
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=install --chown=bun:bun /repo /repo
USER bun
WORKDIR /repo/apps/${APP}
# Admissions keeps its SQLite file and uploads here when no DATABASE_URL is set: mount a volume.
RUN mkdir -p data
# The start script's command itself (every app's package.json "start"), not `bun run start`: the
# app is then pid 1, receives SIGTERM itself for its graceful shutdown, and (the runner) reaps
# the processes orphaned to it, where `bun run` would leave them zombies.
CMD ["bun", "src/index.ts"]

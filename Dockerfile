# One image per app, from this one file (the six differ only in which app they hold):
#   docker build --build-arg APP=runner -t platform-runner .
# APP is a folder under apps/. System packages an app needs at run time are listed in its
# package.json ("systemPackages"; the runner's bubblewrap). Run the runner with the security
# options in docs/security.md ("Container"); docker-compose.yml has them.
ARG BUN_VERSION=1.4.4
FROM oven/bun:${BUN_VERSION}-slim AS base
WORKDIR /repo

# Only this app and the workspace packages it depends on (turbo's Docker pruning). Turbo is
# fetched into Bun's cache before anything app-specific, so the six images share that layer.
FROM base AS prune
RUN bunx turbo@2.11.11 --version
ARG APP
COPY . .
RUN test -d "apps/${APP}" || { echo "build-arg APP must name a folder under apps/" >&2; exit 1; }
RUN bunx turbo@2.11.11 prune "@platform/${APP}" --docker

# The system packages the app needs at run time first, then its dependencies, then its code:
# each layer is rebuilt only when what it comes from changes (a code edit keeps the first two).
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
COPY --from=prune /repo/out/json/ .
RUN bun install --frozen-lockfile --production --ignore-scripts
COPY --from=prune /repo/out/full/ .
# The code and its packages stay root's, which the app (user bun) can read but not change; only
# data/ is the app's own. Admissions keeps its SQLite file and uploads there when no
# DATABASE_URL is set: mount a volume. (Built in place, no copy of /repo into a last stage: a
# chown'd copy of every installed file was 8 of an image's 28 seconds to build.)
RUN mkdir -p "apps/${APP}/data" && chown bun:bun "apps/${APP}/data"
ENV NODE_ENV=production HOST=0.0.0.0
USER bun
WORKDIR /repo/apps/${APP}
# The start script's command itself (every app's package.json "start"), not `bun run start`: the
# app is then pid 1, receives SIGTERM itself for its graceful shutdown, and (the runner) reaps
# the processes orphaned to it, where `bun run` would leave them zombies.
CMD ["bun", "src/index.ts"]

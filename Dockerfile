# Bahi: one image for every distributed-mode service (command, query, projector, reports-worker)
# and the built frontends. Pick the service with the command, e.g.
#   docker run bahi:local node services/command/dist/main.mjs
# (docker-compose.yml does this for each service). node is the service's own process (under the
# image's init), so SIGTERM reaches it and it stops cleanly.
#
# Stages: manifests (the npm manifests alone, for layer caching), build (every dependency, dev
# ones included, to build the frontends and compile the services), and the final image: the
# services' production dependencies only (not the frontends' packages, which run in browsers
# from the built files), the compiled services, and frontends/<name>/dist from the build stage.

ARG NODE_IMAGE=node:22-bookworm-slim

# Stage 1: only the npm manifests (root + every workspace), so that the `npm ci` layers below are
# rebuilt only when a package.json or the lockfile changes, not on every source edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
 && find . -depth -type d -empty -delete

# Stage 2: the frontends (shell and remotes), built with rsbuild (a devDependency) exactly as
# `npm run build:frontends -- --force` builds them on a developer's machine.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY --from=manifests /src/ ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsx frontends/build.ts --force \
 && for name in shell masters transactions reports; do test -f "frontends/$name/dist/index.html" || exit 1; done \
 && npx tsx scripts/build-services.ts

# Stage 3: what runs: compiled services (services/<name>/dist/main.mjs, the project's own code
# bundled by esbuild) and the npm packages they load, installed for the service workspaces only.
FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
# No system fonts: the fonts report PDFs embed are npm dependencies of the reports worker
# (docs/reports.md), installed below with the rest.
COPY --from=manifests /src/ ./
RUN npm ci --omit=dev --no-audit --no-fund \
      -w @bahi/command -w @bahi/query -w @bahi/projector -w @bahi/reports-worker -w @bahi/standalone \
 && npm cache clean --force
COPY --from=build /src/services/command/dist ./services/command/dist
COPY --from=build /src/services/query/dist ./services/query/dist
COPY --from=build /src/services/projector/dist ./services/projector/dist
COPY --from=build /src/services/reports-worker/dist ./services/reports-worker/dist
COPY --from=build /src/services/standalone/dist ./services/standalone/dist
# The operator's commands on the deployment's store, compiled like the services:
#   docker-compose run --rm --no-deps projector node scripts/dist/backup.mjs --out /backups/
COPY --from=build /src/scripts/dist ./scripts/dist
# The built frontends where the standalone app (BAHI_FRONTENDS_DIR=./frontends) and the compose
# `frontends` step (frontends/<name>/dist, for the gateway's FRONTENDS_ROOT) look for them.
COPY --from=build /src/frontends/shell/dist ./frontends/shell/dist
COPY --from=build /src/frontends/masters/dist ./frontends/masters/dist
COPY --from=build /src/frontends/transactions/dist ./frontends/transactions/dist
COPY --from=build /src/frontends/reports/dist ./frontends/reports/dist
# node's own user; /app stays root-owned (read-only for the services).
USER node
EXPOSE 3001 3002 3003 3004
CMD ["node", "--enable-source-maps", "services/query/dist/main.mjs"]

# Bahi: one image for every distributed-mode service (command, query, projector, reports-worker)
# and the built frontends. Pick the service with the command, e.g.
#   docker run bahi:local node services/command/dist/main.mjs
# (docker-compose.yml does this for each service). node is the service's own process (under the
# image's init), so SIGTERM reaches it and it stops cleanly.
#
# Stages: manifests (the npm manifests alone, for layer caching), build (every dependency, dev
# ones included, to build the frontends and the services), and the final image: /app as
# `scripts/build-services.ts --image` assembles it (each service and operator command bundled by
# esbuild with the npm packages it loads, the one native package with what it loads, the report
# fonts' files alone) and frontends/<name>/dist. No `npm ci` in the final stage: nothing there
# that the services do not load (docs/decisions.md, "The image's size").

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
 && npx tsx scripts/build-services.ts --image /src/image-app

# Stage 3: what runs. /app/services/<name>/dist/main.mjs (each service), /app/scripts/dist/*.mjs
# (the operator's commands on the deployment's store:
#   docker-compose run --rm --no-deps projector node scripts/dist/backup.mjs --out /backups/),
# /app/lib (the code they share), /app/node_modules (argon2's native addon, the report fonts).
# The standalone app (PGlite) is not in the image: it runs from a clone (`npm start`).
FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /src/image-app/ ./
# The built frontends where the compose `frontends` step looks for them (frontends/<name>/dist,
# copied into the gateway's FRONTENDS_ROOT).
COPY --from=build /src/frontends/shell/dist ./frontends/shell/dist
COPY --from=build /src/frontends/masters/dist ./frontends/masters/dist
COPY --from=build /src/frontends/transactions/dist ./frontends/transactions/dist
COPY --from=build /src/frontends/reports/dist ./frontends/reports/dist
# node's own user; /app stays root-owned (read-only for the services).
USER node
EXPOSE 3001 3002 3003 3004
CMD ["node", "--enable-source-maps", "services/query/dist/main.mjs"]

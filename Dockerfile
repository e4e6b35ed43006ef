# Bahi: one image for every distributed-mode service (command, query, projector, reports-worker)
# and for the built frontends. Pick the service with the command, e.g.
#   docker run bahi:local npm run start:command
# (docker-compose.yml does this for each service).

# Stage 1: only the npm manifests (root + every workspace), so that the `npm ci` layer below is
# rebuilt only when a package.json or the lockfile changes, not on every source edit.
FROM node:20-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
 && find . -depth -type d -empty -delete

FROM node:20-bookworm-slim
WORKDIR /app
# Fonts the reports worker embeds in PDFs for names in Indian and other scripts (Noto, per script).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-core \
 && rm -rf /var/lib/apt/lists/*
# tsx (a devDependency) runs the services, so devDependencies are installed too.
COPY --from=manifests /src/ ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY . .
RUN npm run build --if-present
# node's own user; /app stays root-owned (read-only for the services).
USER node
EXPOSE 3001 3002 3003 3004
CMD ["npm", "run", "start:query"]

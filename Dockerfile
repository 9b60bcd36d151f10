# syntax=docker/dockerfile:1
# Upbeat as a container: `docker build -t upbeat .` (or `podman build --format docker -t upbeat .`).
# The base is a build argument so the image can be built where no registry image is reachable (CI makes a Debian
# base with Node itself: scripts/ci-container.sh); any Debian-like base with Node 22 and npm on the PATH will do.
ARG BASE=node:22-bookworm-slim

# ---------------------------------------------------------------- build: compile, then drop dev dependencies
FROM ${BASE} AS build
# Behind a TLS-intercepting proxy, npm needs the proxy's CA: pass a path to it with --build-arg and mount the file
# (`podman build -v /path/ca.crt:/path/ca.crt:ro`). A build argument of this stage only: not in the image.
ARG NODE_EXTRA_CA_CERTS
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# The lockfile alone first, so a source change does not refetch the dependencies (the layer stays cached).
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=warn
COPY tsconfig.json tsconfig.build.json vite.config.ts ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund --loglevel=warn

# ---------------------------------------------------------------- runtime: the compiled server, nothing else
FROM ${BASE}
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=pglite:///data/pglite
WORKDIR /app
# A numeric user works on any base (no useradd needed). /data holds the embedded database, its daily snapshots and
# nothing else; ./data (config.dataDir, relative to the working directory) points there, so everything the service
# keeps on disk lands in the volume. A new named volume takes /data's owner from the image.
RUN mkdir -p /data && chown 10001:10001 /data && ln -s /data /app/data
COPY --from=build --chown=0:0 /app/node_modules ./node_modules
COPY --from=build --chown=0:0 /app/dist ./dist
COPY --from=build --chown=0:0 /app/package.json ./package.json
USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000
# No curl in a slim image: Node's own fetch. With systemd-less podman the check runs only when asked
# (`podman healthcheck run`); Docker and compose run it on this timer.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1: src/main.ts handles SIGTERM (drain, exit 0 within 10 s), so no init process is needed.
CMD ["node", "dist/main.js"]

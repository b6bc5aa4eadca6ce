# Parley in a container: build the single binary with the toolchain npm installs, then ship
# the binary alone on a slim base.
#
# Multi-arch ready: the build stage runs on the builder's own platform and cross-compiles for
# the image's (Bun compiles for another CPU without emulation), so
#   docker buildx build --platform linux/amd64,linux/arm64 -t parley .
# builds both without QEMU. A plain `docker build` makes an image for the machine it runs on.
# (Publishing the image is for a later issue.)
FROM --platform=$BUILDPLATFORM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Set by BuildKit (docker buildx, and docker build since 23.0) to the image's architecture.
ARG TARGETARCH
RUN case "${TARGETARCH:-}" in \
      "") target="" ;; \
      amd64) target="--target bun-linux-x64" ;; \
      arm64) target="--target bun-linux-arm64" ;; \
      *) echo "Parley builds for amd64 and arm64, not ${TARGETARCH}" >&2; exit 1 ;; \
    esac && \
    npx bun scripts/build.ts --outfile dist/parley $target

FROM debian:bookworm-slim
# The server runs as this user, never as root. A fixed ID, so that a directory bind-mounted
# from the host can be given to it: `chown 10001:10001 /srv/parley-data`.
# /data starts empty (no home-directory files), so a new volume is an empty data dir.
RUN groupadd --system --gid 10001 parley && \
    useradd --system --uid 10001 --gid parley --no-create-home --home-dir /data parley && \
    mkdir /data && chown parley:parley /data
COPY --from=build /src/dist/parley /usr/local/bin/parley
USER parley
ENV PARLEY_DATA_DIR=/data PARLEY_HOST=0.0.0.0 PARLEY_PORT=8080
# Everything Parley keeps is in /data: the database (parley.db and its -wal file), the saved
# event queues, uploaded files, custom emoji and avatars, and the daily backups in
# /data/backups (PARLEY_BACKUP_DIR puts them on another mount). Mount a named volume or a host
# directory there (`-v parley-data:/data`); without one, the data lives and dies with the
# container.
VOLUME /data
EXPOSE 8080
# `parley health` asks GET /health on 127.0.0.1:$PARLEY_PORT (the image has no curl): healthy
# while the database answers and /data is there and writable. Change the port with
# PARLEY_PORT, not `serve --port`, so that the check follows it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["parley", "health"]
# parley handles SIGTERM itself: it saves event queues and closes the database cleanly.
ENTRYPOINT ["parley"]
# Serves an existing data dir only: a volume mounted at the wrong place must not become a new,
# empty server. The first start creates one when asked (`docker run ... IMAGE serve --init`),
# and its log (`docker logs`) shows the setup code the setup page asks for.
CMD ["serve"]

# Parley in a container: build the single binary with the toolchain npm installs, then ship
# the binary alone on a slim base. (The published image, arm64 included, comes in a later issue.)
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:bookworm-slim
# /data starts empty (no home-directory files), so a new volume is an empty data dir.
RUN useradd --system --no-create-home --home-dir /data parley && mkdir /data && chown parley:parley /data
COPY --from=build /src/dist/parley /usr/local/bin/parley
USER parley
ENV PARLEY_DATA_DIR=/data PARLEY_HOST=0.0.0.0 PARLEY_PORT=8080
VOLUME /data
EXPOSE 8080
# parley handles SIGTERM itself: it saves event queues and closes the database cleanly.
ENTRYPOINT ["parley"]
# Serves an existing data dir only: a volume mounted at the wrong place must not become a new,
# empty server. The first start creates one when asked (`docker run ... IMAGE serve --init`),
# and its log (`docker logs`) shows the setup code the setup page asks for.
CMD ["serve"]

# Parley in a container: build the single binary with the toolchain npm installs, then ship
# the binary alone on a slim base. (The published image, arm64 included, comes in a later issue.)
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /data parley
COPY --from=build /src/dist/parley /usr/local/bin/parley
USER parley
ENV PARLEY_DATA_DIR=/data PARLEY_HOST=0.0.0.0 PARLEY_PORT=8080
VOLUME /data
EXPOSE 8080
# parley handles SIGTERM itself: it saves event queues and closes the database cleanly.
ENTRYPOINT ["parley"]
CMD ["serve"]

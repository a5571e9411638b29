# syntax=docker/dockerfile:1
# Multi-stage build on the current Node LTS slim image.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source: the build stage has the toolchain, the runtime does not.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
WORKDIR /app
COPY . .
RUN npx remix build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data \
    DATABASE_URL=/app/data/console.db
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/locales ./locales
COPY --from=build --chown=node:node /app/package.json /app/server.mjs ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
CMD ["node", "server.mjs"]

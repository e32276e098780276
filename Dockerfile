# syntax=docker/dockerfile:1
# Inkwell: the API and the web app in one container, data in /data (see docker-compose.yml).

# ---- build: install everything, build the web app ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary is reachable; node-gyp then uses the
# headers this image already has instead of downloading them.
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY prisma ./prisma
# npm ci's postinstall applies these to node_modules (patch-package; docs/web.md "What a page costs").
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: production dependencies, the build and the TypeScript sources Node runs (it strips their types) ----
FROM node:24-bookworm-slim AS runtime
# The fonts the demo seed's art names (seed/art/: Liberation Sans Narrow for balloons, DejaVu Sans and
# Serif with their bold/oblique faces for titles and sound effects; fontconfig-config: /etc/fonts/fonts.conf);
# tini forwards signals to node.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fontconfig-config fonts-liberation fonts-dejavu-core fonts-dejavu-extra tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    API_PORT=8080 \
    MALLOC_ARENA_MAX=2
COPY --from=build /app/package.json /app/prisma.config.ts /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/common ./common
COPY --from=build /app/server ./server
COPY --from=build /app/app ./app
COPY --from=build /app/web ./web
COPY --from=build /app/seed ./seed
COPY --from=build /app/scripts ./scripts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD node -e "Promise.all([fetch('http://127.0.0.1:'+process.env.API_PORT+'/health'),fetch('http://127.0.0.1:'+process.env.PORT+'/health')]).then(r=>process.exit(r.every(x=>x.ok)?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/start.ts"]

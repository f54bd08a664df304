# crc-rates: the API, the site and the scheduled sync in one process.
# Build: docker build -t crc-rates .    Run: docker run -p 3000:3000 -v crc-data:/app/data crc-rates
# Operator commands in a running container: docker exec CONTAINER node dist/keys.js list

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY scripts ./scripts
COPY shared ./shared
COPY server ./server
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
# Two glibc allocator arenas, not one per thread that allocates at once (V8's helper threads), whose
# freed memory glibc seldom gives back: 20-130 MB less RSS after load (scripts/run.mjs, npm start).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
# /livez touches no dependency: a slow database must not get the container killed.
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The compiled server, in this process: SIGTERM reaches it and it drains before stopping.
CMD ["node", "--enable-source-maps", "dist/main.js"]

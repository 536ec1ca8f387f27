# syntax=docker/dockerfile:1

# Both stages run Node 24, the runtime the bot targets. The sqlite3 native addon is compiled (or its
# prebuilt binary fetched) in the build stage for that stage's Node ABI, so the two stages must share
# the same major version: an addon built under Node 20 would not be guaranteed to load under Node 24.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# python3, make and g++ build sqlite3 from source when no prebuilt binary matches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The production code only (tsconfig.build.json leaves src/dev out), compiled to dist/ by TypeScript,
# which is a development dependency: the next step removes it with tsx and the test tools. The compiler
# writes straight into a plain dist/ folder: nothing runs in this stage, so the build-beside-and-swap of
# `npm run build` (scripts/dist.js, for checkouts where a bot may be running) is not needed here.
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
RUN npx tsc -p tsconfig.build.json
# i18next names TypeScript as an optional peer (for its typings), so pruning keeps the compiler; nothing
# loads it at run time, so it goes too.
RUN npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver

# The runtime image: compiled JavaScript and what it reads at run time, nothing else (no TypeScript
# sources, no compiler, no development tools, tests or benchmarks).
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    STORE_URL=sqlite:///app/data/bot.sqlite \
    HTTP_PORT=8080
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node locales ./locales
# The chart fonts (DejaVu Sans and the CJK and emoji fallbacks): text in PNG charts and the profile card
# renders only with font files passed explicitly.
COPY --chown=node:node assets ./assets
# Created before VOLUME so that a new named volume starts out owned by the non-root user.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 8080
# The slim image has no curl: ask Node's own fetch. Unsetting HTTP_PORT turns the endpoint off and
# makes this check fail, so keep it set (or override HEALTHCHECK) when running the image.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HTTP_PORT}/healthz`, { signal: AbortSignal.timeout(5000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Plain node on the compiled entry (not `npm start`, which checks the sources first): registering the commands is
# `node dist/src/discord/deploy.js` in the same image.
CMD ["node", "dist/src/main.js"]

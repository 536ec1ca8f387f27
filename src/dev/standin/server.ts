import { dmChannelId, setDmsOpen } from './dm.ts';
import { apiChannel, apiGuildCreate } from './api-shapes.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBody, readRaw } from './body.ts';
import { CommandStore } from './commands.ts';
import { Intent } from './constants.ts';
import { RestError, httpStatusText } from './errors.ts';
import { Gateway } from './gateway.ts';
import { InteractionHub } from './interactions/index.ts';
import { snapshot } from './messages.ts';
import { announceMember, announceMemberRemove, announceRole, announceRoleDelete } from './members.ts';
import { GlobalRateLimit, RouteRateLimit, type RouteLimit } from './rate-limit.ts';
import { buildRoutes, redactPath, type Reply, type RouteBucket } from './rest.ts';
import { addRole, deleteRole, editRole, publicMember, publicRole } from './roles.ts';
import { nextSnowflake } from './snowflake.ts';
import { DiscordState } from './state.ts';
import type { DiscordStandin, DiscordStandinOptions, RequestMatch, RequestRecord } from './types.ts';
import { Watch } from './watch.ts';

/** The token the stand-in accepts unless told otherwise: fake, and shaped like a real one. */
export const defaultStandinToken = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GStand.in-fake-token-not-a-secret';
export const defaultApplicationId = '1100000000000000001';
/**
 * Discord does not publish its per-route limits (clients are to read the headers): a plausible value for
 * the member role routes, not a measured one.
 */
export const defaultMemberRolesRateLimit: RouteLimit = { limit: 10, windowMs: 10_000 };
/** The `X-RateLimit-Bucket` of the member role routes: opaque, as Discord's bucket hashes are. */
const memberRolesBucketHash = '5e1c0de7a4b9f2d8c6e3a1b0f9d7c5e2';

interface Fault {
  match: RequestMatch;
  status: number;
  remaining: number;
}

/** Starts the REST API and the gateway on one ephemeral port on 127.0.0.1. */
export async function startDiscordStandin(options: DiscordStandinOptions = {}): Promise<DiscordStandin> {
  const token = options.token ?? defaultStandinToken;
  const applicationId = options.applicationId ?? defaultApplicationId;
  const botUserId = options.botUserId ?? applicationId;
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  let baseUrl = '';
  let gatewayUrl = '';
  const world = new DiscordState({ applicationId, botUserId, baseUrl: () => baseUrl });
  const server = createServer();
  const gateway = new Gateway(server, { world, token, gatewayUrl: () => gatewayUrl });
  const commands = new CommandStore(applicationId);
  const hub = new InteractionHub({
    world,
    gateway,
    commands,
    timeoutMs: options.interactionTimeoutMs ?? 3000,
  });
  const routes = buildRoutes({
    world,
    commands,
    hub,
    gateway,
    gatewayUrl: () => gatewayUrl,
    maxConcurrency: Math.max(1, Math.floor(options.maxConcurrency ?? 1)),
  });
  const limiter = options.globalRateLimit
    ? new GlobalRateLimit(options.globalRateLimit.perSecond, () => world.now())
    : null;
  const routeLimits: Record<RouteBucket, RouteRateLimit> = {
    memberRoles: new RouteRateLimit(
      memberRolesBucketHash,
      options.memberRolesRateLimit ?? defaultMemberRolesRateLimit,
      options.memberRolesRateLimit?.now ?? (() => world.now()),
    ),
  };
  const faults: Fault[] = [];
  const log: RequestRecord[] = [];
  const watch = new Watch();
  const sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  let closing: Promise<void> | null = null;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const sleeper = {
        wake: () => {
          clearTimeout(sleeper.timer);
          sleepers.delete(sleeper);
          resolve();
        },
        timer: setTimeout(() => sleeper.wake(), ms),
      };
      sleepers.add(sleeper);
    });

  const takeFault = (method: string, path: string): number | undefined => {
    const fault = faults.find(
      (f) =>
        (f.match.method === undefined || f.match.method.toUpperCase() === method) && f.match.path.test(path),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults.splice(faults.indexOf(fault), 1);
    return fault.status;
  };

  const send = (
    res: ServerResponse,
    record: RequestRecord | null,
    reply: Reply,
    headers: Record<string, string> = {},
  ): void => {
    if (record) {
      record.status = reply.status;
      const body = reply.body;
      record.code =
        reply.status >= 400 &&
        typeof body === 'object' &&
        body !== null &&
        'code' in body &&
        typeof body.code === 'number'
          ? body.code
          : null;
    }
    if (res.destroyed) return;
    if (reply.status === 204 || reply.body === undefined) {
      res.writeHead(reply.status, headers).end();
      return;
    }
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      ...headers,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  };

  const sendError = (
    res: ServerResponse,
    record: RequestRecord | null,
    error: RestError,
    headers: Record<string, string> = {},
  ): void =>
    send(res, record, { status: error.status, body: error.body() }, { ...headers, ...error.headers });

  const serveAttachment = (path: string, res: ServerResponse): void => {
    const [, , , attachmentId] = path.split('/');
    for (const message of world.messages.values()) {
      const attachment = message.attachments.find((a) => a.id === attachmentId);
      if (attachment) {
        res.writeHead(200, {
          'Content-Type': attachment.contentType ?? 'application/octet-stream',
          'Content-Length': String(attachment.bytes.length),
        });
        res.end(attachment.bytes);
        return;
      }
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = world.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'GET' && url.pathname.startsWith('/attachments/')) {
      serveAttachment(url.pathname, res);
      return;
    }
    const match = /^\/api\/v(\d+)(\/.*)$/.exec(url.pathname);
    const path = match?.[2] ?? url.pathname;
    // Faults match what a test writes (`/messages/@original`), whatever the client percent-encoded.
    const decodedPath = path.split('/').map(safeDecode).join('/');
    const record: RequestRecord = {
      method,
      path: redactPath(decodedPath),
      query: url.search.slice(1),
      status: 0,
      at,
      code: null,
    };
    log.push(record);
    watch.changed();
    let raw: Buffer;
    try {
      raw = await readRaw(req);
    } catch (error) {
      sendError(res, record, error instanceof RestError ? error : new RestError(400, 0, '400: Bad Request'));
      return;
    }
    if (latencyMs > 0) await sleep(latencyMs);
    if (closing) {
      req.socket.destroy();
      return;
    }
    const fault = takeFault(method, decodedPath);
    if (fault === 0) {
      // A TCP reset, so the client sees ECONNRESET: what @discordjs/rest retries as a network fault.
      req.socket.resetAndDestroy();
      return;
    }
    if (fault !== undefined) {
      sendError(
        res,
        record,
        new RestError(fault, 0, `${fault}: ${httpStatusText(fault)}`, faultExtras(fault)),
      );
      return;
    }
    if (!match) {
      sendError(res, record, new RestError(404, 0, '404: Not Found'));
      return;
    }
    if (match[1] !== '10') {
      sendError(res, record, new RestError(400, 50041));
      return;
    }
    const candidates = routes.filter((r) => r.pattern.test(path));
    const route = candidates.find((r) => r.method === method);
    if (!route) {
      const error =
        candidates.length === 0
          ? new RestError(404, 0, '404: Not Found')
          : new RestError(405, 0, '405: Method Not Allowed');
      sendError(res, record, error);
      return;
    }
    // Rate limit headers go on every answer of a limited route, errors included, as Discord's do.
    let limitHeaders: Record<string, string> = {};
    try {
      if (route.auth) {
        if (req.headers.authorization !== `Bot ${token}`) throw new RestError(401, 0, '401: Unauthorized');
        limiter?.take();
      }
      const groups = route.pattern.exec(path)?.groups ?? {};
      const params = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, safeDecode(v)]));
      if (route.bucket) limitHeaders = routeLimits[route.bucket].take(params.guild ?? '');
      const body = parseBody(raw, req.headers['content-type']);
      const reasonHeader = req.headers['x-audit-log-reason'];
      const reason = typeof reasonHeader === 'string' ? safeDecode(reasonHeader) : null;
      send(res, record, route.handler({ params, query: url.searchParams, body, reason }), limitHeaders);
    } catch (error) {
      if (error instanceof RestError) {
        sendError(res, record, error, limitHeaders);
        return;
      }
      const detail = error instanceof Error ? error.message : String(error);
      send(res, record, {
        status: 500,
        body: { message: '500: Internal Server Error', code: 0, standin_error: detail },
      });
    }
  };

  server.on(
    'request',
    (req: IncomingMessage, res: ServerResponse) => void handle(req, res).finally(watch.changed),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  gatewayUrl = `ws://127.0.0.1:${port}`;

  return {
    restUrl: `${baseUrl}/api`,
    gatewayUrl,
    token,
    applicationId,
    botUserId,
    addGuild(g = {}) {
      const guild = world.addGuild(g);
      gateway.dispatch(guild.id, 'GUILD_CREATE', apiGuildCreate(world, guild), Intent.Guilds);
      return {
        id: guild.id,
        name: guild.name,
        preferredLocale: guild.preferredLocale,
        ownerId: guild.ownerId,
        botRoleId: guild.botRoleId,
      };
    },
    addChannel(guildId, c = {}) {
      const channel = world.addChannel(guildId, c);
      gateway.dispatch(guildId, 'CHANNEL_CREATE', apiChannel(world, channel), Intent.Guilds);
      return { id: channel.id, guildId: channel.guildId, name: channel.name, type: channel.type };
    },
    addRole(guildId, r = {}) {
      const { role, moved } = addRole(world, guildId, r);
      announceRole(gateway, role, 'GUILD_ROLE_CREATE');
      for (const other of moved) announceRole(gateway, other, 'GUILD_ROLE_UPDATE');
      return publicRole(role);
    },
    editRole(guildId, roleId, changes) {
      const role = editRole(world, guildId, roleId, changes);
      announceRole(gateway, role, 'GUILD_ROLE_UPDATE');
      return publicRole(role);
    },
    deleteRole(guildId, roleId) {
      deleteRole(world, guildId, roleId);
      announceRoleDelete(gateway, guildId, roleId);
    },
    addMember(guildId, m = {}) {
      const guild = world.guild(guildId);
      const id = m.id ?? nextSnowflake();
      if (guild.members.has(id)) throw new Error(`${id} is already a member of guild ${guildId}`);
      world.ensureUser(m.username === undefined ? { id } : { id, username: m.username });
      const member = world.ensureMember(guild, id, m.roles ?? []);
      announceMember(world, gateway, guild, member, 'GUILD_MEMBER_ADD');
      return publicMember(guild, member);
    },
    setMemberRoles(guildId, userId, roleIds) {
      const guild = world.guild(guildId);
      if (!guild.members.has(userId)) throw new Error(`${userId} is not a member of guild ${guildId}`);
      const member = world.ensureMember(guild, userId, roleIds);
      announceMember(world, gateway, guild, member, 'GUILD_MEMBER_UPDATE');
      return publicMember(guild, member);
    },
    removeMember(guildId, userId) {
      if (!world.removeMember(guildId, userId)) {
        throw new Error(`${userId} is not a member of guild ${guildId}`);
      }
      announceMemberRemove(world, gateway, guildId, userId);
    },
    memberRoles(guildId, userId) {
      const guild = world.guild(guildId);
      const member = guild.members.get(userId);
      return member ? publicMember(guild, member).roles : null;
    },
    roleChanges: (guildId) =>
      world.roleChanges.filter((c) => guildId === undefined || c.guildId === guildId).map((c) => ({ ...c })),
    rateLimitHits: () => ({
      global: limiter?.refused ?? 0,
      memberRoles: routeLimits.memberRoles.refused,
    }),
    setBotPermissions(guildId, channelId, perms) {
      const channel = world.setBotPermissions(guildId, channelId, perms);
      gateway.dispatch(guildId, 'CHANNEL_UPDATE', apiChannel(world, channel), Intent.Guilds);
    },
    failChannel(channelId, error) {
      if (error) world.channelFailures.set(channelId, { ...error });
      else world.channelFailures.delete(channelId);
    },
    setDmsOpen: (userId, open) => setDmsOpen(world, userId, open),
    dmChannelId: (userId) => dmChannelId(world, userId),
    failNext(match, status, times = 1) {
      if (!Number.isInteger(status) || (status !== 0 && (status < 400 || status > 599))) {
        throw new Error('failNext: status must be 0 (connection reset) or 400..599');
      }
      faults.push({ match, status, remaining: Math.max(1, times) });
    },
    invokeCommand: (i) => hub.invokeCommand(i),
    clickButton: (message, customId, opts) => hub.clickButton(message, customId, opts),
    selectMenu: (message, customId, values, opts) => hub.selectMenu(message, customId, values, opts),
    autocomplete: (i) => hub.autocomplete(i),
    submitModal: (customId, fields, opts) => hub.submitModal(customId, fields, opts),
    requestReconnect: () => gateway.requestReconnect(),
    gatewaySessions: () => gateway.sessions(),
    commands: { global: () => commands.list(null), guild: (guildId) => commands.list(guildId) },
    messages: (channelId) => world.listMessages(channelId).map(snapshot),
    requests: () => log.map((r) => ({ ...r })),
    until: (condition, what, timeoutMs) => watch.until(condition, what, timeoutMs),
    close() {
      closing ??= (async () => {
        for (const sleeper of [...sleepers]) sleeper.wake();
        hub.close();
        await gateway.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

function faultExtras(status: number): { headers?: Record<string, string>; extra?: Record<string, unknown> } {
  if (status !== 429) return {};
  return {
    headers: { 'Retry-After': '1', 'X-RateLimit-Scope': 'user' },
    extra: { retry_after: 1, global: false },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

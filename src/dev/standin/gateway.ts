import { apiGuildCreate, apiMember, apiUser } from './api-shapes.ts';
import type { IncomingMessage, Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { GatewayClose, GatewayOp, Intent } from './constants.ts';
import { isRecord, type DiscordState } from './state.ts';

export const heartbeatIntervalMs = 41_250;
const privilegedIntents = Intent.GuildMembers | Intent.GuildPresences | Intent.MessageContent;
const maxPayloadBytes = 4096;
const replayLimit = 1000;
/** Close codes after which Discord forgets the session: a client that closes with them cannot resume. */
const sessionEndingCloseCodes = new Set([1000, 1001]);
/** Discord recommends one shard per 1,000 servers, and refuses a session holding more than 2,500. */
export const guildsPerRecommendedShard = 1000;
export const maxGuildsPerShard = 2500;

interface Session {
  id: string;
  shard: [number, number];
  intents: number;
  seq: number;
  socket: WebSocket | null;
  log: Array<{ s: number; data: string }>;
}

interface Connection {
  socket: WebSocket;
  session: Session | null;
}

export interface GatewayOptions {
  world: DiscordState;
  token: string;
  gatewayUrl(): string;
}

/** A gateway session as a test sees it: its shard and whether a socket is attached now. */
export interface GatewaySessionInfo {
  shard: [number, number];
  connected: boolean;
}

/**
 * The gateway: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME and dispatches to live sessions.
 * Sharded as Discord is: a session identified with `shard: [id, count]` receives the dispatches of the
 * servers whose `(guild_id >> 22) % count` is `id` (those without a server go to shard 0), and one that
 * would hold more than 2,500 servers is closed with 4011 (sharding required).
 */
export class Gateway {
  readonly #options: GatewayOptions;
  readonly #wss: WebSocketServer;
  readonly #sessions = new Map<string, Session>();
  #identifies = 0;

  constructor(server: Server, options: GatewayOptions) {
    this.#options = options;
    this.#wss = new WebSocketServer({ server });
    this.#wss.on('connection', (socket, req) => this.#accept(socket, req));
  }

  get identifies(): number {
    return this.#identifies;
  }

  /** What `GET /gateway/bot` answers: one shard per 1,000 servers, at least one. */
  recommendedShards(): number {
    return Math.max(1, Math.ceil(this.#options.world.guilds.size / guildsPerRecommendedShard));
  }

  sessions(): GatewaySessionInfo[] {
    return [...this.#sessions.values()].map((s) => ({
      shard: [s.shard[0], s.shard[1]],
      connected: s.socket !== null,
    }));
  }

  /** Sessions with a live socket or waiting to resume, for dispatches to the shard that owns `guildId`. */
  hasSessionFor(guildId: string | null): boolean {
    return [...this.#sessions.values()].some((s) => this.#owns(s, guildId));
  }

  /** Sends a dispatch to every session whose shard owns the guild (DMs: shard 0) and that asked for the intent. */
  dispatch(guildId: string | null, t: string, d: unknown, intent?: number): void {
    for (const session of this.#sessions.values()) {
      if (!this.#owns(session, guildId)) continue;
      if (intent !== undefined && (session.intents & intent) === 0) continue;
      this.#send(session, t, d);
    }
  }

  requestReconnect(): void {
    for (const session of this.#sessions.values()) {
      if (session.socket) this.#raw(session.socket, { op: GatewayOp.Reconnect, d: null, s: null, t: null });
    }
  }

  close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#sessions.clear();
    return new Promise((resolve) => this.#wss.close(() => resolve()));
  }

  #owns(session: Session, guildId: string | null): boolean {
    const [id, count] = session.shard;
    return (guildId === null ? 0 : ownerShard(guildId, count)) === id;
  }

  #accept(socket: WebSocket, req: IncomingMessage): void {
    const url = new URL(req.url ?? '/', 'ws://127.0.0.1');
    const version = url.searchParams.get('v');
    const encoding = url.searchParams.get('encoding') ?? 'json';
    if (version !== null && version !== '10') {
      socket.close(GatewayClose.InvalidApiVersion, 'Invalid API version');
      return;
    }
    if (encoding !== 'json') {
      socket.close(GatewayClose.DecodeError, 'Only JSON encoding is supported.');
      return;
    }
    // `compress=zlib-stream` is ignored: frames stay text, which @discordjs/ws parses whatever it asked for.
    const connection: Connection = { socket, session: null };
    socket.on('message', (raw, isBinary) => this.#receive(connection, raw, isBinary));
    socket.on('close', (code) => this.#closed(connection, code));
    socket.on('error', () => socket.terminate());
    this.#raw(socket, {
      op: GatewayOp.Hello,
      d: { heartbeat_interval: heartbeatIntervalMs },
      s: null,
      t: null,
    });
  }

  #closed(connection: Connection, code: number): void {
    const session = connection.session;
    if (!session || session.socket !== connection.socket) return;
    session.socket = null;
    if (sessionEndingCloseCodes.has(code)) this.#sessions.delete(session.id);
  }

  #receive(connection: Connection, raw: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as Buffer);
    if (isBinary || bytes.length > maxPayloadBytes) {
      connection.socket.close(GatewayClose.DecodeError, 'Error while decoding payload.');
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(bytes.toString('utf8'));
    } catch {
      connection.socket.close(GatewayClose.DecodeError, 'Error while decoding payload.');
      return;
    }
    if (!isRecord(payload) || typeof payload.op !== 'number') {
      connection.socket.close(GatewayClose.DecodeError, 'Error while decoding payload.');
      return;
    }
    const d = payload.d;
    switch (payload.op) {
      case GatewayOp.Heartbeat:
        this.#raw(connection.socket, { op: GatewayOp.HeartbeatAck, d: null, s: null, t: null });
        return;
      case GatewayOp.Identify:
        this.#identify(connection, d);
        return;
      case GatewayOp.Resume:
        this.#resume(connection, d);
        return;
      default:
        break;
    }
    if (!connection.session) {
      connection.socket.close(GatewayClose.NotAuthenticated, 'Not authenticated.');
      return;
    }
    switch (payload.op) {
      case GatewayOp.PresenceUpdate:
      case GatewayOp.VoiceStateUpdate:
        return;
      case GatewayOp.RequestGuildMembers:
        this.#requestMembers(connection.session, d);
        return;
      default:
        connection.socket.close(GatewayClose.UnknownOpcode, 'Unknown opcode.');
    }
  }

  #tokenMatches(token: unknown): boolean {
    return typeof token === 'string' && token.replace(/^Bot\s+/i, '') === this.#options.token;
  }

  #identify(connection: Connection, d: unknown): void {
    const socket = connection.socket;
    if (connection.session) {
      socket.close(GatewayClose.AlreadyAuthenticated, 'Already authenticated.');
      return;
    }
    if (!isRecord(d) || !this.#tokenMatches(d.token)) {
      socket.close(GatewayClose.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    if (typeof d.intents !== 'number' || !Number.isInteger(d.intents) || d.intents < 0) {
      socket.close(GatewayClose.InvalidIntents, 'Invalid intent(s).');
      return;
    }
    if ((d.intents & privilegedIntents) !== 0) {
      socket.close(GatewayClose.DisallowedIntents, 'Disallowed intent(s).');
      return;
    }
    const shard = parseShard(d.shard, this.recommendedShards());
    if (!shard) {
      socket.close(GatewayClose.InvalidShard, 'Invalid shard.');
      return;
    }
    const { world } = this.#options;
    const guilds = [...world.guilds.values()].filter((g) => ownerShard(g.id, shard[1]) === shard[0]);
    if (guilds.length > maxGuildsPerShard) {
      socket.close(GatewayClose.ShardingRequired, 'Sharding is required.');
      return;
    }
    this.#identifies += 1;
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      shard,
      intents: d.intents,
      seq: 0,
      socket,
      log: [],
    };
    this.#sessions.set(session.id, session);
    connection.session = session;
    this.#send(session, 'READY', {
      v: 10,
      user: { ...apiUser(world.bot()), verified: true, mfa_enabled: false, email: null },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.#options.gatewayUrl(),
      shard,
      application: { id: world.identity.applicationId, flags: 0 },
      user_settings: {},
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth: {},
      _trace: ['["standin-gateway",{"micros":0}]'],
    });
    if ((session.intents & Intent.Guilds) === 0) return;
    for (const guild of guilds) this.#send(session, 'GUILD_CREATE', apiGuildCreate(world, guild));
  }

  #resume(connection: Connection, d: unknown): void {
    const socket = connection.socket;
    if (connection.session) {
      socket.close(GatewayClose.AlreadyAuthenticated, 'Already authenticated.');
      return;
    }
    if (!isRecord(d) || !this.#tokenMatches(d.token)) {
      socket.close(GatewayClose.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    const session = typeof d.session_id === 'string' ? this.#sessions.get(d.session_id) : undefined;
    const seq = typeof d.seq === 'number' ? d.seq : null;
    const oldest = session?.log[0]?.s ?? 1;
    if (!session || seq === null || seq > session.seq || seq < oldest - 1) {
      this.#raw(socket, { op: GatewayOp.InvalidSession, d: false, s: null, t: null });
      return;
    }
    if (session.socket && session.socket !== socket) session.socket.close(4009, 'Session taken over.');
    session.socket = socket;
    connection.session = session;
    for (const entry of session.log) {
      if (entry.s > seq) socket.send(entry.data);
    }
    this.#send(session, 'RESUMED', null);
  }

  #requestMembers(session: Session, d: unknown): void {
    if (!isRecord(d) || typeof d.guild_id !== 'string') return;
    const guild = this.#options.world.guilds.get(d.guild_id);
    if (!guild) return;
    const ids = Array.isArray(d.user_ids)
      ? d.user_ids.map(String)
      : typeof d.user_ids === 'string'
        ? [d.user_ids]
        : null;
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : null;
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
    const { world } = this.#options;
    const members = [...guild.members.values()]
      .filter((m) => {
        if (ids) return ids.includes(m.userId);
        const user = world.users.get(m.userId);
        return query === null || query === '' || (user?.username.toLowerCase().startsWith(query) ?? false);
      })
      .slice(0, limit);
    this.#send(session, 'GUILD_MEMBERS_CHUNK', {
      guild_id: guild.id,
      members: members.map((m) => apiMember(world, guild, m)),
      chunk_index: 0,
      chunk_count: 1,
      ...(ids ? { not_found: ids.filter((id) => !guild.members.has(id)) } : {}),
      ...(typeof d.nonce === 'string' ? { nonce: d.nonce } : {}),
    });
  }

  #send(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const data = JSON.stringify({ op: GatewayOp.Dispatch, t, s: session.seq, d });
    session.log.push({ s: session.seq, data });
    if (session.log.length > replayLimit) session.log.shift();
    if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(data);
  }

  #raw(socket: WebSocket, payload: unknown): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
  }
}

/** The shard that receives a server's events, as Discord computes it. */
export function ownerShard(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

function parseShard(value: unknown, recommended: number): [number, number] | null {
  if (value === undefined || value === null) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [id, count] = value as unknown[];
  if (
    typeof id !== 'number' ||
    typeof count !== 'number' ||
    !Number.isInteger(id) ||
    !Number.isInteger(count)
  ) {
    return null;
  }
  if (count < 1 || id < 0 || id >= count || count > recommended * 16) return null;
  return [id, count];
}

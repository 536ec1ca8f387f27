import { apiChannel, apiGuild, apiMember, apiMessage, apiRole, apiUser } from './api-shapes.ts';
import { PermissionFlagsBits } from 'discord.js';
import type { RequestBody } from './body.ts';
import type { CommandStore } from './commands.ts';
import { RestError, invalidForm } from './errors.ts';
import type { Gateway } from './gateway.ts';
import type { InteractionHub } from './interactions/index.ts';
import { announceMember } from './members.ts';
import { announceMessage, createMessage, editMessage } from './messages.ts';
import { canManageRole, changeMemberRole } from './roles.ts';
import type { ChannelState, DiscordState } from './state.ts';
import { MessageFlag, parseMessageBody } from './validate.ts';

export interface Reply {
  status: number;
  body?: unknown;
}

export interface RouteContext {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  body: RequestBody;
  /** The `X-Audit-Log-Reason` header, URL-decoded as discord.js encodes it; null when absent. */
  reason: string | null;
}

export interface Route {
  method: string;
  pattern: RegExp;
  /** Whether the route needs `Authorization: Bot <token>` (and so counts against the global limit). */
  auth: boolean;
  /** The per-route limit it counts against, keyed by its `:guild`; none for most routes. */
  bucket?: RouteBucket | undefined;
  handler(ctx: RouteContext): Reply;
}

/** Per-route limits the stand-in enforces (`memberRoles`: adding and removing a member's role). */
export type RouteBucket = 'memberRoles';

export interface RestDeps {
  world: DiscordState;
  commands: CommandStore;
  hub: InteractionHub;
  gateway: Gateway;
  gatewayUrl(): string;
  maxConcurrency: number;
}

const nonceWindowMs = 5 * 60 * 1000;
const ok = (body: unknown): Reply => ({ status: 200, body });
const noContent: Reply = { status: 204 };

/** Every REST route the stand-in serves, paths relative to `/api/v10`. */
export function buildRoutes(deps: RestDeps): Route[] {
  const { world, commands, hub, gateway } = deps;
  const nonces = new Map<string, { messageId: string; at: number }>();
  const routes: Route[] = [];
  const route = (
    method: string,
    path: string,
    auth: boolean,
    handler: (ctx: RouteContext) => Reply,
    bucket?: RouteBucket,
  ): void => {
    const source = path.replace(/:(\w+)/g, (_, name: string) => `(?<${name}>[^/]+)`);
    routes.push({ method, pattern: new RegExp(`^${source}$`), auth, bucket, handler });
  };
  const param = (ctx: RouteContext, name: string): string => {
    const value = ctx.params[name];
    if (value === undefined) throw new Error(`route parameter ${name} is missing`);
    return value;
  };
  const guildOf = (ctx: RouteContext) => {
    const guild = world.guilds.get(param(ctx, 'guild'));
    if (!guild) throw new RestError(404, 10004);
    return guild;
  };
  const commandScope = (ctx: RouteContext): string | null => {
    if (param(ctx, 'app') !== world.identity.applicationId) throw new RestError(403, 50001);
    if (!('guild' in ctx.params)) return null;
    if (!world.guilds.has(param(ctx, 'guild'))) throw new RestError(403, 50001);
    return param(ctx, 'guild');
  };
  const botPerms = (channel: ChannelState): bigint =>
    world.channelPermissions(channel, world.identity.botUserId);
  const has = (perms: bigint, flag: bigint): boolean => (perms & flag) === flag;
  const visibleChannel = (ctx: RouteContext): ChannelState => {
    const channel = world.channelFor(param(ctx, 'channel'));
    if (!channel) throw new RestError(404, 10003);
    if (!has(botPerms(channel), PermissionFlagsBits.ViewChannel)) throw new RestError(403, 50001);
    return channel;
  };
  const failing = (ctx: RouteContext): void => {
    const failure = world.channelFailures.get(param(ctx, 'channel'));
    if (failure) throw new RestError(failure.status, failure.code, failure.message);
  };
  const channelMessage = (channel: ChannelState, id: string) => {
    const message = world.messages.get(id);
    if (message?.channelId !== channel.id || (message.flags & MessageFlag.Ephemeral) !== 0) {
      throw new RestError(404, 10008);
    }
    return message;
  };

  route('GET', '/gateway', false, () => ok({ url: deps.gatewayUrl() }));
  route('GET', '/gateway/bot', true, () =>
    ok({
      url: deps.gatewayUrl(),
      shards: gateway.recommendedShards(),
      session_start_limit: {
        total: 1000,
        remaining: Math.max(0, 1000 - gateway.identifies),
        reset_after: 14_400_000,
        max_concurrency: deps.maxConcurrency,
      },
    }),
  );

  route('GET', '/users/@me', true, () =>
    ok({
      ...apiUser(world.bot()),
      verified: true,
      mfa_enabled: false,
      email: null,
      locale: 'en-US',
      bio: '',
    }),
  );
  route('GET', '/users/@me/guilds', true, () =>
    ok(
      [...world.guilds.values()].map((g) => ({
        id: g.id,
        name: g.name,
        icon: null,
        banner: null,
        owner: g.ownerId === world.identity.botUserId,
        permissions: world.basePermissions(g, world.identity.botUserId).toString(),
        features: [],
      })),
    ),
  );
  route('POST', '/users/@me/channels', true, (ctx) => {
    const json = ctx.body.json;
    const recipient =
      typeof json === 'object' && json !== null && 'recipient_id' in json ? json.recipient_id : undefined;
    if (typeof recipient !== 'string') {
      throw invalidForm([
        { path: ['recipient_id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
      ]);
    }
    const user = world.users.get(recipient);
    if (!user) throw new RestError(404, 10013);
    if (user.bot) throw new RestError(403, 50007);
    return ok(apiChannel(world, world.dmChannelFor(user.id)));
  });
  route('GET', '/users/:user', true, (ctx) => {
    const user = world.users.get(param(ctx, 'user'));
    if (!user) throw new RestError(404, 10013);
    return ok(apiUser(user));
  });

  const application = (): Reply => {
    const owner =
      world.users.get('400000000000000001') ??
      world.ensureUser({ id: '400000000000000001', username: 'developer' });
    return ok({
      id: world.identity.applicationId,
      name: world.bot().username,
      icon: null,
      description: '',
      summary: '',
      type: null,
      bot_public: true,
      bot_require_code_grant: false,
      verify_key: '0'.repeat(64),
      flags: 0,
      hook: true,
      is_monetized: false,
      is_verified: false,
      is_discoverable: false,
      storefront_available: false,
      team: null,
      owner: apiUser(owner),
      bot: apiUser(world.bot()),
      approximate_guild_count: world.guilds.size,
      approximate_user_install_count: 0,
      redirect_uris: [],
      interactions_endpoint_url: null,
      integration_types_config: { '0': {} },
      tags: [],
    });
  };
  route('GET', '/applications/@me', true, application);
  route('GET', '/oauth2/applications/@me', true, application);

  for (const prefix of ['/applications/:app/commands', '/applications/:app/guilds/:guild/commands']) {
    route('GET', prefix, true, (ctx) => ok(commands.list(commandScope(ctx))));
    route('PUT', prefix, true, (ctx) => ok(commands.bulkOverwrite(commandScope(ctx), ctx.body.json)));
    route('POST', prefix, true, (ctx) => {
      const { command, created } = commands.upsert(commandScope(ctx), ctx.body.json);
      return { status: created ? 201 : 200, body: command };
    });
    route('GET', `${prefix}/:command`, true, (ctx) =>
      ok(commands.get(commandScope(ctx), param(ctx, 'command'))),
    );
    route('PATCH', `${prefix}/:command`, true, (ctx) =>
      ok(commands.edit(commandScope(ctx), param(ctx, 'command'), ctx.body.json)),
    );
    route('DELETE', `${prefix}/:command`, true, (ctx) => {
      commands.delete(commandScope(ctx), param(ctx, 'command'));
      return noContent;
    });
  }

  route('POST', '/interactions/:id/:token/callback', false, (ctx) => {
    const withResponse = ctx.query.get('with_response') === 'true';
    const body = hub.callback(param(ctx, 'id'), param(ctx, 'token'), ctx.body, withResponse);
    return body === undefined ? noContent : ok(body);
  });
  route('POST', '/webhooks/:app/:token', false, (ctx) => {
    const message = hub.webhookFollowUp(param(ctx, 'app'), param(ctx, 'token'), ctx.body);
    return ctx.query.get('wait') === 'true' ? ok(message) : noContent;
  });
  route('GET', '/webhooks/:app/:token/messages/:message', false, (ctx) =>
    ok(hub.webhookGet(param(ctx, 'app'), param(ctx, 'token'), param(ctx, 'message'))),
  );
  route('PATCH', '/webhooks/:app/:token/messages/:message', false, (ctx) =>
    ok(hub.webhookEdit(param(ctx, 'app'), param(ctx, 'token'), param(ctx, 'message'), ctx.body)),
  );
  route('DELETE', '/webhooks/:app/:token/messages/:message', false, (ctx) => {
    hub.webhookDelete(param(ctx, 'app'), param(ctx, 'token'), param(ctx, 'message'));
    return noContent;
  });

  route('GET', '/channels/:channel', true, (ctx) => ok(apiChannel(world, visibleChannel(ctx))));
  route('GET', '/channels/:channel/messages', true, (ctx) => {
    const channel = visibleChannel(ctx);
    if (!has(botPerms(channel), PermissionFlagsBits.ReadMessageHistory)) return ok([]);
    const limit = Math.min(100, Math.max(1, Number(ctx.query.get('limit') ?? 50) || 50));
    const list = world
      .listMessages(channel.id)
      .filter((m) => (m.flags & MessageFlag.Ephemeral) === 0)
      .reverse()
      .slice(0, limit);
    return ok(list.map((m) => apiMessage(world, m)));
  });
  route('POST', '/channels/:channel/messages', true, (ctx) => {
    failing(ctx);
    const channel = visibleChannel(ctx);
    const perms = botPerms(channel);
    if (channel.guildId !== null && !has(perms, PermissionFlagsBits.SendMessages))
      throw new RestError(403, 50013);
    if (
      ctx.body.files.length > 0 &&
      channel.guildId !== null &&
      !has(perms, PermissionFlagsBits.AttachFiles)
    ) {
      throw new RestError(403, 50013);
    }
    const body = parseMessageBody(ctx.body.json ?? {});
    const reference = body.message_reference;
    if (reference?.message_id && reference.fail_if_not_exists !== false) {
      const target = world.messages.get(reference.message_id);
      if (target?.channelId !== channel.id) {
        throw invalidForm([
          {
            path: ['message_reference'],
            code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE',
            message: 'Unknown message',
          },
        ]);
      }
    }
    const nonceKey =
      body.nonce === undefined || body.nonce === null ? null : `${channel.id}:${String(body.nonce)}`;
    if (nonceKey !== null && body.enforce_nonce === true) {
      const seen = nonces.get(nonceKey);
      const earlier =
        seen && world.now() - seen.at < nonceWindowMs ? world.messages.get(seen.messageId) : undefined;
      if (earlier) return ok(apiMessage(world, earlier));
    }
    const message = createMessage(world, {
      channelId: channel.id,
      guildId: channel.guildId,
      kind: 'channel',
      interactionId: null,
      body,
      files: ctx.body.files,
    });
    if (nonceKey !== null) nonces.set(nonceKey, { messageId: message.id, at: world.now() });
    announceMessage(world, gateway, 'MESSAGE_CREATE', message);
    return ok(apiMessage(world, message));
  });
  route('GET', '/channels/:channel/messages/:message', true, (ctx) => {
    const channel = visibleChannel(ctx);
    if (!has(botPerms(channel), PermissionFlagsBits.ReadMessageHistory)) throw new RestError(403, 50001);
    return ok(apiMessage(world, channelMessage(channel, param(ctx, 'message'))));
  });
  route('PATCH', '/channels/:channel/messages/:message', true, (ctx) => {
    failing(ctx);
    const channel = visibleChannel(ctx);
    const message = channelMessage(channel, param(ctx, 'message'));
    if (message.authorId !== world.identity.botUserId) throw new RestError(403, 50005);
    editMessage(world, message, parseMessageBody(ctx.body.json ?? {}), ctx.body.files);
    announceMessage(world, gateway, 'MESSAGE_UPDATE', message);
    return ok(apiMessage(world, message));
  });
  route('DELETE', '/channels/:channel/messages/:message', true, (ctx) => {
    const channel = visibleChannel(ctx);
    const message = channelMessage(channel, param(ctx, 'message'));
    world.deleteMessage(message.id);
    announceMessage(world, gateway, 'MESSAGE_DELETE', message);
    return noContent;
  });
  route('POST', '/channels/:channel/typing', true, (ctx) => {
    visibleChannel(ctx);
    return noContent;
  });

  route('GET', '/guilds/:guild', true, (ctx) => {
    const guild = guildOf(ctx);
    const counts =
      ctx.query.get('with_counts') === 'true'
        ? { approximate_member_count: guild.members.size, approximate_presence_count: 0 }
        : {};
    return ok({ ...apiGuild(guild), ...counts });
  });
  route('GET', '/guilds/:guild/channels', true, (ctx) =>
    ok([...guildOf(ctx).channels.values()].map((c) => apiChannel(world, c))),
  );
  route('GET', '/guilds/:guild/roles', true, (ctx) =>
    ok([...guildOf(ctx).roles.values()].map((r) => apiRole(r))),
  );
  route('GET', '/guilds/:guild/members/:user', true, (ctx) => {
    const guild = guildOf(ctx);
    const member = guild.members.get(param(ctx, 'user'));
    if (!member) throw new RestError(404, 10007);
    return ok(apiMember(world, guild, member));
  });
  for (const [method, action] of [
    ['PUT', 'add'],
    ['DELETE', 'remove'],
  ] as const) {
    route(
      method,
      '/guilds/:guild/members/:user/roles/:role',
      true,
      (ctx) => {
        const guild = guildOf(ctx);
        const member = guild.members.get(param(ctx, 'user'));
        if (!member) throw new RestError(404, 10007);
        const role = guild.roles.get(param(ctx, 'role'));
        if (!role) throw new RestError(404, 10011);
        if (!canManageRole(world, guild, world.identity.botUserId, role)) throw new RestError(403, 50013);
        // Like Discord, giving a role the member has (or taking one it lacks) succeeds and changes nothing.
        if (changeMemberRole(member, role.id, action)) {
          world.roleChanges.push({
            guildId: guild.id,
            userId: member.userId,
            roleId: role.id,
            action,
            reason: ctx.reason,
            at: world.now(),
          });
          announceMember(world, gateway, guild, member, 'GUILD_MEMBER_UPDATE');
        }
        return noContent;
      },
      'memberRoles',
    );
  }
  return routes;
}

/** Replaces interaction and webhook tokens in a path, for the request log. */
export function redactPath(path: string): string {
  return path
    .replace(/^\/interactions\/([^/]+)\/[^/]+\/callback$/, '/interactions/$1/:token/callback')
    .replace(
      /^\/webhooks\/([^/]+)\/[^/]+(\/.*)?$/,
      (_, app: string, rest: string | undefined) => `/webhooks/${app}/:token${rest ?? ''}`,
    );
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PermissionFlagsBits, REST } from 'discord.js';
import type { KyselyPlugin } from 'kysely';
import { pino } from 'pino';
import { systemClock } from '../../src/core/clock.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { discordRestAgent } from '../../src/discord/rest-agent.ts';
import { accountLinks } from '../../src/players/accounts.ts';
import { RoleRules, type RoleRule } from '../../src/features/roles/rules.ts';
import { RoleSyncer } from '../../src/features/roles/sync.ts';
import { StoreError } from '../../src/store/index.ts';

/**
 * Roles left behind when a role sync is cut short, through the Discord stand-in: the store stops after a
 * number of writes (as PostgreSQL stopped mid-sync), or the process doing the sync is killed between a
 * Discord call and its confirmation. After recovery the rule is removed as `/roles remove` does; the
 * members still holding its role are the roles left behind (the goal: 0). Shared by the chaos run's two
 * rows and by `test/features/roles/left-behind.test.ts`.
 */
export interface LeftBehind {
  /** Members holding the rule's role on Discord when the sync was cut short, and grant rows then. */
  readonly holders: number;
  readonly grantRows: number;
  /** Holders after recovery and the rule's removal: what the bot can never take back. */
  readonly leftBehind: number;
}

export interface LeftBehindOptions {
  /** `sqlite:///abs/file` or `postgres://…?schema=…` (a file or a server: the killed variant shares it). */
  readonly databaseUrl: string;
  readonly members?: number;
  /** Store: the writes that succeed before it stops. Killed: the role given before the process is killed. */
  readonly cutAfter: number;
  /** How long the killed process may take to reach its pause (ms); the only wait, on an event. */
  readonly timeoutMs?: number;
}

const silent = pino({ level: 'silent' });
const CHILD = fileURLToPath(new URL('./roles-sync-child.ts', import.meta.url));

interface Setup {
  readonly discord: DiscordStandin;
  readonly guildId: string;
  readonly roleId: string;
  readonly rule: RoleRule;
}

async function setUp(db: Database, members: number): Promise<Setup> {
  // Discord's role window, wide enough that nothing here waits for it.
  const discord = await startDiscordStandin({ memberRolesRateLimit: { limit: 10_000, windowMs: 1_000 } });
  const guildId = discord.addGuild({ name: 'Role hall' }).id;
  const top = discord.addRole(guildId, {
    name: 'killfeed',
    permissions: PermissionFlagsBits.ManageRoles,
    position: 20,
  });
  discord.setMemberRoles(guildId, discord.botUserId, [
    ...(discord.memberRoles(guildId, discord.botUserId) ?? []),
    top.id,
  ]);
  const roleId = discord.addRole(guildId, { name: 'Verified', position: 5 }).id;
  const now = Date.now();
  const rule = await new RoleRules(db).add({
    guildId,
    kind: 'verified',
    params: {},
    roleIds: [roleId],
    createdBy: '1',
    createdAt: now,
  });
  if (!rule) throw new Error('the rule was not saved');
  for (let i = 0; i < members; i += 1) {
    const userId = String(410_000_000_000_000_000n + BigInt(i));
    discord.addMember(guildId, { id: userId, username: `m${i}` });
    await accountLinks({ db }).set(userId, { playerName: `Member${i}`, linkedAt: now });
    await db.kysely
      .insertInto('guild_members')
      .values({ guild_id: guildId, user_id: userId, seen_at: now })
      .execute();
  }
  return { discord, guildId, roleId, rule };
}

export function standinRest(discord: { readonly restUrl: string; readonly token: string }): REST {
  return new REST({ api: discord.restUrl, agent: discordRestAgent() }).setToken(discord.token);
}

function holders(setup: Setup, members: number): number {
  let count = 0;
  for (let i = 0; i < members; i += 1) {
    const userId = String(410_000_000_000_000_000n + BigInt(i));
    if (setup.discord.memberRoles(setup.guildId, userId)?.includes(setup.roleId)) count += 1;
  }
  return count;
}

async function grantRows(db: Database): Promise<number> {
  const row = await db.kysely
    .selectFrom('role_grants')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** What `/roles remove` does: the rule goes, then every role it gave is taken back. */
async function removeRule(db: Database, setup: Setup): Promise<void> {
  const rest = standinRest(setup.discord);
  await new RoleRules(db).delete(setup.rule.id);
  await new RoleSyncer({ db, rest, clock: systemClock, log: silent }).revokeRule(setup.rule);
}

/** The database, failing every query once `writes` inserts and updates have gone through. */
function stoppingAfter(
  db: Database,
  writes: number,
): { db: Database; stopped: () => boolean; restart(): void } {
  let left = writes;
  let down = false;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (down) throw new StoreError('the store is not answering');
      const kind = args.node.kind;
      if (kind === 'InsertQueryNode' || kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode') {
        if (left <= 0) {
          down = true;
          throw new StoreError('the store is not answering');
        }
        left -= 1;
      }
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return {
    db: { ...db, kysely: db.kysely.withPlugin(plugin), ping: () => Promise.resolve(!down) },
    stopped: () => down,
    restart: () => {
      down = false;
      left = Infinity;
    },
  };
}

/** The store stops after `cutAfter` writes of a `/roles sync`; it comes back; the rule is removed. */
export async function storeStoppedMidSync(options: LeftBehindOptions): Promise<LeftBehind> {
  const members = options.members ?? 30;
  const db = await openDatabase(options.databaseUrl);
  const setup = await setUp(db, members);
  try {
    const store = stoppingAfter(db, options.cutAfter);
    const syncer = new RoleSyncer({
      db: store.db,
      rest: standinRest(setup.discord),
      clock: systemClock,
      log: silent,
    });
    const failed = await syncer.sync(setup.guildId).then(
      () => false,
      () => true,
    );
    if (!failed || !store.stopped()) throw new Error('the store did not stop during the sync');
    const cut = { holders: holders(setup, members), grantRows: await grantRows(db) };
    store.restart();
    await removeRule(db, setup);
    return { ...cut, leftBehind: holders(setup, members) };
  } finally {
    await setup.discord.close();
    await db.close();
  }
}

/** A process doing `/roles sync` is killed (SIGKILL) once Discord gave the `cutAfter`th role. */
export async function processKilledMidSync(options: LeftBehindOptions): Promise<LeftBehind> {
  const members = options.members ?? 30;
  let db = await openDatabase(options.databaseUrl);
  const setup = await setUp(db, members);
  try {
    await db.close();
    await killedSync(setup, options);
    const cut = { holders: holders(setup, members) };
    db = await openDatabase(options.databaseUrl);
    const rows = await grantRows(db);
    await removeRule(db, setup);
    return { ...cut, grantRows: rows, leftBehind: holders(setup, members) };
  } finally {
    await setup.discord.close();
    await db.close();
  }
}

async function killedSync(setup: Setup, options: LeftBehindOptions): Promise<void> {
  const tsx = import.meta.resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, CHILD], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {
      PATH: process.env.PATH ?? '',
      KF_ROLES_CHILD: JSON.stringify({
        databaseUrl: options.databaseUrl,
        restUrl: setup.discord.restUrl,
        token: setup.discord.token,
        guildId: setup.guildId,
        pauseAfter: options.cutAfter,
      }),
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the sync process never reached its pause')),
        options.timeoutMs ?? 30_000,
      );
      child.on('message', (message: unknown) => {
        if ((message as { type?: unknown }).type !== 'given') return;
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the sync process ended first (${code})`));
      });
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
}

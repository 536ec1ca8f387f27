import { describe, expect, it } from 'vitest';
import type { Step, StepHook } from '../../../../src/announcements/delivery.ts';
import type { Subscription } from '../../../../src/announcements/model.ts';
import { ClanLogSource, clanLogSource } from '../../../../src/features/clans/log/source.ts';
import { apiRankReader, apiRosterReader } from '../../../../src/features/clans/log/roster.ts';
import type { Clan, ClanMember } from '../../../../src/dev/sandbox/index.ts';
import { jumpWallClock } from '../../../support/clock.ts';
import {
  drive,
  flakyDatabase,
  posted,
  subscribeDirectly,
  useWorldPerTest,
  type Process,
  type ProcessOptions,
} from '../../../support/announcements.ts';
import { demandReader } from '../../../../src/demand.ts';

/**
 * The clan log end to end: the sandbox's clan rosters change, the worker reads them on the manual clock and
 * posts through the Discord stand-in. Every kind of change is posted exactly once, across a crash at each
 * step, a database failing mid-read, and a worker that dies holding the lease.
 */
const fixture = useWorldPerTest();
const FIVE_MINUTES = 5 * 60_000;
const CLAN = 'NoScope';

const EVERY_TITLE = [
  `${CLAN}: new owner`,
  `${CLAN}: joined (2)`,
  `${CLAN}: left (1)`,
  `${CLAN}: probably renamed (1)`,
  `${CLAN}: promoted (1)`,
  `${CLAN}: demoted (1)`,
  `${CLAN}: score milestones (1)`,
  `${CLAN}: the clan`,
];

function withClans(options: ProcessOptions = {}): ProcessOptions {
  return { ...options, sources: (services) => [clanLogSource(services.config, services.demand)] };
}

function clan(): Clan {
  const found = fixture.world.sandbox.world.clans.find((c) => c.name === CLAN);
  if (!found) throw new Error(`no clan ${CLAN}`);
  return found;
}

async function follow(
  options: Record<string, string | number> = { events: 'all', milestone: 10_000 },
  fields: Partial<Subscription> = {},
): Promise<Subscription> {
  return subscribeDirectly(fixture.world, {
    kind: 'clan-log',
    options: { clanId: clan().id, clanName: CLAN, ...options },
    ...fields,
  });
}

/** Members by role, the owner left out, in name order: who each change happens to. */
function cast(): {
  promote: ClanMember;
  demote: ClanMember;
  leave: ClanMember;
  heir: ClanMember;
  rise: ClanMember;
  renamed: ClanMember;
} {
  const { rosters } = fixture.world.sandbox;
  const others = clan()
    .members.filter((m) => m.playerId !== clan().ownerId)
    .sort((a, b) => a.playerName.localeCompare(b.playerName));
  if (others.length < 6) throw new Error('the sample clan is too small for this test');
  // Fixed roles before the baseline, so that each change below is the one named.
  const [promote, demote, leave, heir, rise, renamed] = others as [ClanMember, ...ClanMember[]];
  rosters.setRole(promote.playerName, 0);
  rosters.setRole(demote!.playerName, 1);
  rosters.setRole(leave!.playerName, 0);
  rosters.setRole(heir!.playerName, 2);
  rosters.setRole(rise!.playerName, 0);
  rosters.setRole(renamed!.playerName, 0);
  return { promote, demote: demote!, leave: leave!, heir: heir!, rise: rise!, renamed: renamed! };
}

/** Every kind of change at once: two joins, a leave, a promotion, a demotion, an owner, a milestone, a rename. */
function changeEverything(people: ReturnType<typeof cast>): void {
  const { sandbox } = fixture.world;
  const joiners = sandbox.world.players
    .filter((p) => p.clanId === null && !p.banned && p.stats.score > 0)
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, 2);
  for (const joiner of joiners) sandbox.activity.setClan(joiner.name, CLAN);
  sandbox.activity.setClan(people.leave.playerName, '');
  sandbox.rosters.setRole(people.promote.playerName, 1);
  sandbox.rosters.setRole(people.demote.playerName, 0);
  sandbox.rosters.setRole(people.heir.playerName, 3);
  const score = sandbox.world.players.find((p) => p.name === people.rise.playerName)?.stats.score ?? 0;
  sandbox.rosters.addScore(people.rise.playerName, 1_000_000 - (score % 1_000_000) + 7);
  sandbox.rosters.rename(people.renamed.playerName, `${people.renamed.playerName}_2`);
}

function titles(channelId = fixture.world.channelId): string[] {
  return posted(fixture.world, channelId).flatMap((m) => m.embeds.map((e) => e.title ?? ''));
}

async function poll(process: Process): Promise<void> {
  await drive(fixture.world.clock, process.announcements.pollOnce());
}

describe('the clan log', () => {
  it('records a baseline silently, then posts every kind of change in one message, once', async () => {
    const people = cast();
    await follow();
    const process = await fixture.start(withClans());
    await poll(process);
    expect(posted(fixture.world)).toEqual([]);

    changeEverything(people);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    const messages = posted(fixture.world);
    expect(messages).toHaveLength(1);
    const embeds = messages[0]?.embeds ?? [];
    expect(embeds.map((e) => e.title)).toEqual(EVERY_TITLE);
    const text = embeds.map((e) => e.description).join('\n');
    expect(text).toContain(`**${people.promote.playerName}**: Member → Officer`);
    expect(text).toContain(`**${people.renamed.playerName}** → **${people.renamed.playerName}\\_2**`);
    expect(messages[0]?.allowedMentions).toEqual({ parse: [], roles: [] });

    // Nothing new: nothing more, and each poll read the roster once.
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect(posted(fixture.world)).toHaveLength(1);
    expect(fixture.world.sandbox.requests.count(`/clans/${clan().id}/profile`)).toBe(3);
  });

  const steps: Step[] = ['stored', 'sent', 'recorded'];
  for (const step of steps) {
    it(`posts each change exactly once when the worker dies after "${step}" and restarts`, async () => {
      const people = cast();
      await follow();
      const first = await fixture.start(withClans());
      await poll(first);
      await first.stop();
      changeEverything(people);
      await fixture.world.clock.advance(FIVE_MINUTES);

      let crashed = false;
      const hook: StepHook = (at) => {
        if (crashed || at === step) {
          crashed = true;
          throw new Error(`crash at ${at}`);
        }
      };
      const crashing = await fixture.start(withClans({ announcements: { hook } }));
      await expect(drive(fixture.world.clock, crashing.announcements.pollOnce())).rejects.toThrow(/crash at/);
      await crashing.stop();

      // Its delivery claims expire (measured by the wall clock, moved past them).
      const wall = jumpWallClock(250);
      try {
        const restarted = await fixture.start(withClans());
        await poll(restarted);
        await fixture.world.clock.advance(FIVE_MINUTES);
        await poll(restarted);
      } finally {
        wall.restore();
      }
      expect(titles()).toEqual(EVERY_TITLE);
      expect(await fixture.world.repos.inbox.pending()).toEqual([]);
    });
  }

  it('loses nothing when the database fails before a read is stored: the next read tells it all', async () => {
    const people = cast();
    await follow();
    const process = await fixture.start(withClans());
    await poll(process);
    await process.stop();

    // The roster is read, then the database stops answering before the read is stored.
    const flaky = { down: false, failures: 0 };
    const failing = await fixture.start({
      db: flakyDatabase(fixture.world.db, flaky),
      sources: () => [
        (deps) =>
          new ClanLogSource({
            ...deps,
            demand: demandReader(deps.db),
            read: async (clanId, signal) => {
              const roster = await apiRosterReader(deps.api)(clanId, signal);
              flaky.down = true;
              return roster;
            },
            ranks: apiRankReader(deps.api),
            config: fixture.world.config,
          }),
      ],
    });
    fixture.world.sandbox.rosters.setRole(people.promote.playerName, 1);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await expect(drive(fixture.world.clock, failing.announcements.pollOnce())).rejects.toThrow();
    expect(flaky.failures).toBeGreaterThan(0);
    flaky.down = false;
    await failing.stop();
    expect(posted(fixture.world)).toEqual([]);

    // A change made meanwhile comes with it, in the same message.
    fixture.world.sandbox.rosters.setRole(people.demote.playerName, 0);
    const restarted = await fixture.start(withClans());
    await poll(restarted);
    expect(titles()).toEqual([`${CLAN}: promoted (1)`, `${CLAN}: demoted (1)`]);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(restarted);
    expect(posted(fixture.world)).toHaveLength(1);
  });

  for (const step of ['stored', 'sent'] as const) {
    it(`posts each change exactly once when the worker dies after "${step}" holding the lease and a standby takes over`, async () => {
      const people = cast();
      await follow();
      const lease = { leaseTtlMs: 1_000 };
      let armed = false;
      let crashed = false;
      const hook: StepHook = (at) => {
        if (crashed || (armed && at === step)) {
          crashed = true;
          throw new Error(`crash at ${at}`);
        }
      };
      const active = await fixture.start(withClans({ announcements: { ...lease, hook } }));
      const standby = await fixture.start(withClans({ announcements: lease }));
      await poll(active);
      await poll(standby);
      expect(active.announcements.state).toBe('active');
      expect(standby.announcements.state).toBe('standby');

      changeEverything(people);
      await fixture.world.clock.advance(FIVE_MINUTES);
      armed = true;
      await expect(drive(fixture.world.clock, active.announcements.pollOnce())).rejects.toThrow(/crash at/);
      // The dead worker still holds the lease: the standby waits.
      await poll(standby);
      expect(standby.announcements.state).toBe('standby');
      const wall = jumpWallClock(1_500);
      try {
        await poll(standby);
        expect(standby.announcements.state).toBe('active');
        await fixture.world.clock.advance(FIVE_MINUTES);
        await poll(standby);
      } finally {
        wall.restore();
      }
      expect(titles()).toEqual(EVERY_TITLE);
      expect(await fixture.world.repos.inbox.pending()).toEqual([]);
    });
  }

  it('reads a clan once per poll for every server following it, each channel getting what it chose', async () => {
    const people = cast();
    const other = fixture.world.discord.addGuild({ name: 'Other', preferredLocale: 'de' });
    const otherChannel = fixture.world.discord.addChannel(other.id, { name: 'clan' }).id;
    const milestonesOnly = fixture.world.addChannel('milestones');
    await follow({ events: 'roster' });
    await follow({ events: 'milestones', milestone: 1_000_000 }, { channelId: milestonesOnly });
    await follow({ events: 'all' }, { guildId: other.id, channelId: otherChannel, locale: 'de' });
    const process = await fixture.start(withClans());
    await poll(process);
    changeEverything(people);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);

    expect(fixture.world.sandbox.requests.count(`/clans/${clan().id}/profile`)).toBe(2);
    expect(titles()).toEqual(EVERY_TITLE.filter((t) => !/milestones|the clan/.test(t)));
    expect(titles(milestonesOnly)).toContain(`${CLAN}: score milestones (1)`);
    expect(titles(otherChannel)).toContain(`${CLAN}: neuer Besitzer`);
    expect(posted(fixture.world, otherChannel)).toHaveLength(1);
  });

  it('gives a channel subscribed after the last read that read as its baseline', async () => {
    const people = cast();
    await follow();
    const process = await fixture.start(withClans());
    await poll(process);
    await fixture.world.clock.advance(60_000);
    const late = fixture.world.addChannel('late');
    await follow({ events: 'all' }, { channelId: late });
    fixture.world.sandbox.rosters.setRole(people.promote.playerName, 1);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect(titles()).toEqual([`${CLAN}: promoted (1)`]);
    expect(titles(late)).toEqual([]);
    fixture.world.sandbox.rosters.setRole(people.demote.playerName, 0);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect(titles(late)).toEqual([`${CLAN}: demoted (1)`]);
  });

  it('pauses the clan’s subscriptions when its roster answers 404, and reads it no more', async () => {
    const subscription = await follow();
    const process = await fixture.start(withClans());
    await poll(process);
    const path = `/clans/${clan().id}/profile`;
    fixture.world.sandbox.faults.inject({ match: path, kind: 'status', status: 404 });
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect((await fixture.world.repos.subscriptions.get(subscription.id))?.state).toMatchObject({
      status: 'disabled',
      reason: 'clanNotFound',
      code: 404,
    });
    const reads = fixture.world.sandbox.requests.count(path);
    for (let i = 0; i < 3; i += 1) {
      await fixture.world.clock.advance(FIVE_MINUTES);
      await poll(process);
    }
    expect(fixture.world.sandbox.requests.count(path)).toBe(reads);
    expect(posted(fixture.world)).toEqual([]);
  });

  it('keeps the last roster when a reply comes without its members (nobody reads as leaving)', async () => {
    const people = cast();
    await follow();
    const process = await fixture.start(withClans());
    await poll(process);
    fixture.world.sandbox.faults.inject({
      match: `/clans/${clan().id}/profile`,
      kind: 'wrongType',
      field: 'members',
      times: 1,
    });
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect(posted(fixture.world)).toEqual([]);
    fixture.world.sandbox.rosters.setRole(people.promote.playerName, 1);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect(titles()).toEqual([`${CLAN}: promoted (1)`]);
  });

  it('waits an interval after a failed read rather than asking again at every poll', async () => {
    const people = cast();
    await follow();
    const process = await fixture.start(withClans());
    await poll(process);
    const path = `/clans/${clan().id}/profile`;
    fixture.world.sandbox.faults.inject({ match: path, kind: 'status', status: 503, times: 2 });
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    const afterFailure = fixture.world.sandbox.requests.count(path);
    await fixture.world.clock.advance(30_000);
    await poll(process);
    expect(fixture.world.sandbox.requests.count(path)).toBe(afterFailure);
    // An interval later it is read again, and what changed meanwhile is told.
    fixture.world.sandbox.rosters.setRole(people.promote.playerName, 1);
    await fixture.world.clock.advance(FIVE_MINUTES);
    await poll(process);
    expect(fixture.world.sandbox.requests.count(path)).toBe(afterFailure + 1);
    expect(titles()).toEqual([`${CLAN}: promoted (1)`]);
    const [subscription] = await fixture.world.repos.subscriptions.all();
    expect(subscription?.state).toEqual({ status: 'active' });
  });
});

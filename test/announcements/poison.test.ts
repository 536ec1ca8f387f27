import { describe, expect, it } from 'vitest';
import type { Locale, Translator } from '../../src/i18n/index.ts';
import { Translations } from '../../src/i18n/index.ts';
import type { AnnouncementEvent } from '../../src/announcements/model.ts';
import { DeliveryRepository } from '../../src/announcements/repositories.ts';
import { capturedLog, posted, subscribeDirectly, useWorldPerTest } from '../support/announcements.ts';

/** Poison in the inbox: an event that cannot be announced never holds up the others, and is set aside. */
const fixture = useWorldPerTest();

/** Translations that throw, as a renderer bug would, whenever a value holds `POISON`. */
class PoisonedTranslations extends Translations {
  override for(locale: Locale): Translator {
    const real = super.for(locale);
    return {
      locale: real.locale,
      n: (value, options) => real.n(value, options),
      t: (key, vars) => {
        if (JSON.stringify(vars ?? {}).includes('POISON')) throw new RangeError('Invalid time value');
        return real.t(key, vars);
      },
    };
  }
}

function featured(id: number, mapName: string, at: number): AnnouncementEvent {
  return {
    key: `e:${id}`,
    source: 'events',
    type: 'map.featured',
    at,
    data: {
      id,
      type: 'map.featured',
      created_at: new Date(at).toISOString(),
      target: { type: 'map', id },
      data: { map_id: id, map_name: mapName, creator: 'someone' },
    },
  };
}

describe('poison in the inbox', () => {
  it('a turf day of 1e13 (finding 4) does not block the next announcement or keep its claim', async () => {
    const { world } = fixture;
    const subscription = await subscribeDirectly(world, {
      kind: 'turf',
      options: { clanId: 7, clanName: 'Frostbite' },
    });
    await world.clock.advance(1_000);
    const poison: AnnouncementEvent = {
      key: 'turf-day:9999999999999:7',
      source: 'turf',
      type: 'turf.daily',
      at: world.clock.now(),
      data: { day: 1e13 - 1, clanId: 7, clanName: 'Frostbite', kr: 5 },
    };
    const good: AnnouncementEvent = {
      ...poison,
      key: 'turf-day:249:7',
      at: world.clock.now() + 1,
      data: { day: 249, clanId: 7, clanName: 'Frostbite', kr: 5 },
    };
    await world.repos.inbox.accept(poison);
    await world.repos.inbox.accept(good);
    const process = await fixture.start();
    await process.announcements.flush();
    expect(posted(world).map((m) => m.embeds[0]?.title)).toEqual(['Frostbite: turf earnings of day 249']);
    expect(await world.repos.inbox.pending()).toEqual([]);
    const claims = world.store.namespace('announce-claims');
    expect(await claims.has(DeliveryRepository.key(subscription.id, poison.key))).toBe(false);
  });

  it('an event that fails to render every pass is set aside once, logged once, counted, claim released', async () => {
    const { world } = fixture;
    const { log, lines } = capturedLog();
    const subscription = await subscribeDirectly(world, { kind: 'maps' });
    await world.clock.advance(1_000);
    const poison = featured(101, 'POISON', world.clock.now());
    const good = featured(102, 'Fine map', world.clock.now() + 1_000);
    const later = featured(103, 'Later map', world.clock.now() + 2_000);
    await world.repos.inbox.accept(poison);
    await world.repos.inbox.accept(good);
    const process = await fixture.start({ log, translations: new PoisonedTranslations() });
    const claims = world.store.namespace('announce-claims');

    await process.announcements.flush();
    expect(posted(world)).toHaveLength(1);
    expect(await claims.has(DeliveryRepository.key(subscription.id, poison.key))).toBe(false);
    expect((await world.repos.inbox.pending()).map((p) => [p.event.key, p.attempts])).toEqual([
      [poison.key, 1],
    ]);

    await world.repos.inbox.accept(later);
    for (let pass = 2; pass <= 5; pass += 1) await process.announcements.flush();
    expect(posted(world)).toHaveLength(2);
    expect(await world.repos.inbox.pending()).toEqual([]);
    expect(process.announcements.stats.quarantined).toBe(1);
    expect(await world.repos.inbox.quarantined(poison.key)).toMatchObject({ reason: 'plan: RangeError' });
    expect(
      await world.repos.deliveries.get(DeliveryRepository.key(subscription.id, poison.key)),
    ).toMatchObject({ outcome: 'failed' });
    // Neither webhook nor poll brings it back.
    expect(await world.repos.inbox.accept(poison)).toBe(false);
    await process.announcements.flush();

    const loud = lines.filter((line) => (line.level as number) >= 40);
    expect(loud).toHaveLength(1);
    expect(loud[0]).toMatchObject({ event: poison.key, subscriptions: [subscription.id] });
    expect(process.announcements.stats.quarantined).toBe(1);
  });
});

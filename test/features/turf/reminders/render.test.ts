import { describe, expect, it } from 'vitest';
import type { Reminder } from '../../../../src/features/turf/reminders/model.ts';
import { renderReminder, renderReminderList } from '../../../../src/features/turf/reminders/render.ts';
import { turfDayDate } from '../../../../src/api/turf-days.ts';
import { NASTY, embedOf, expectSafe, translators } from '../../../support/render.ts';

/** The reminder's post and `/remind list`: the standing per map, the late note, hostile names inert. */
const END = turfDayDate(250);
const reminder: Reminder = {
  subscriptionId: 'abc234',
  day: 249,
  clanId: 7,
  clanName: 'Vortex',
  dueAt: END - 3_600_000,
  readAt: END - 3_600_000 + 20_000,
  position: 4,
  points: 2_000,
  maps: [
    {
      mapId: 0,
      owner: 'Vortex',
      owned: true,
      position: 1,
      points: 900,
      leader: { name: 'Vortex', points: 900, own: true },
    },
    {
      mapId: 2,
      owner: 'Holder',
      owned: false,
      position: 3,
      points: 700,
      leader: { name: 'Holder', points: 1_000, own: false },
    },
    {
      mapId: 3,
      owner: null,
      owned: false,
      position: null,
      rows: 100,
      leader: { name: 'Far', points: 10, own: false },
    },
    { mapId: 40, owned: false, position: null, rows: 12, leader: { name: 'Far', points: 10, own: false } },
  ],
};

describe('renderReminder', () => {
  it('shows when the day ends and the standing on each map', () => {
    const payload = renderReminder(translators.en, reminder, '42');
    expect(payload.content).toBe('<@&42>');
    const embed = embedOf(payload);
    expect(embed.title).toBe('Vortex: turf day 249 (Nov 21) ends soon');
    expect(embed.description).toBe(
      `The turf day ends <t:${END / 1000}:R> (at <t:${END / 1000}:t>).\n` +
        'Today so far: place **4** with **2,000** points.',
    );
    expect(embed.fields).toEqual([
      { name: '👑 Burg', value: 'Held by your clan\nLeading today with **900** points', inline: true },
      {
        name: 'Sandstorm',
        value: 'Held by **Holder**\nPlace 3 · 700 points · **300** behind **Holder**',
        inline: true,
      },
      {
        name: 'Subzero',
        value: "Held by nobody\nNot in today's top 100 · **Far** leads with 10",
        inline: true,
      },
      { name: 'Map 40', value: 'No points today · **Far** leads with 10', inline: true },
    ]);
    expect(embedOf(renderReminder(translators.de, reminder, undefined)).title).toBe(
      'Vortex: Reviertag 249 (21. Nov.) endet bald',
    );
    expect(renderReminder(translators.de, reminder, undefined).content).toBe('');
  });

  it('says when it was due once it is posted late', () => {
    const late = { ...reminder, readAt: reminder.dueAt + 30 * 60_000 };
    expect(embedOf(renderReminder(translators.en, late, undefined)).description).toContain(
      `Planned for <t:${reminder.dueAt / 1000}:t>: posted late, the bot was not running then.`,
    );
  });

  it('keeps hostile clan names inert; only its own role is mentioned', () => {
    const hostile: Reminder = {
      ...reminder,
      clanName: NASTY.slice(0, 64),
      maps: reminder.maps.map((m) => ({
        ...m,
        owner: NASTY.slice(0, 64),
        leader: { name: NASTY.slice(0, 64), points: 5, own: false },
      })),
    };
    for (const t of Object.values(translators))
      expectSafe(renderReminder(t, hostile, '42'), { mentions: ['<@&42>'] });
  });
});

describe('renderReminderList', () => {
  it('lists the server’s reminders with their last post, within one embed', () => {
    const views = Array.from({ length: 25 }, (_, i) => ({
      id: `id${i}`,
      clanName: NASTY.slice(0, 64),
      before: 60,
      channelId: '5',
      roleId: '6',
      last: { day: 249, status: 'queued' as const, at: END - 3_600_000 },
    }));
    const payload = renderReminderList(translators.en, views, 25);
    expectSafe(payload, { mentions: ['<#5>', '<@&6>'], ephemeral: true });
    expect(embedOf(payload).title).toBe('Turf reminders (25 of 25)');
    const missed = renderReminderList(
      translators.en,
      [{ ...views[0]!, last: { day: 250, status: 'missed', at: END } }],
      25,
    );
    expect(embedOf(missed).fields?.[0]?.value).toContain('Missed on Nov 22');
  });
});

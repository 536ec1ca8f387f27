import { describe, expect, it } from 'vitest';
import type { CommunityMap } from '../../src/dev/sandbox/index.ts';
import { playUrl } from '../../src/announcements/render-posts.ts';
import { drive, posted, subscribeDirectly, useWorldPerTest } from '../support/announcements.ts';

/** A featured map's post: votes, plays, creator and a play link from the map's record; the edit keeps them. */
const fixture = useWorldPerTest();

function unfeaturedMaps(): CommunityMap[] {
  return fixture.world.sandbox.world.maps.filter((map) => map.hidden === null && !map.featured);
}

async function publish(type: 'map.featured' | 'map.unfeatured', map: CommunityMap) {
  await fixture.world.clock.advance(1_000);
  return fixture.world.sandbox.events.publish(type, map.id);
}

function fieldsOf(message: { embeds: Array<{ fields?: Array<{ name: string; value: string }> }> }) {
  return Object.fromEntries((message.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
}

function mapRequests(map: CommunityMap) {
  return fixture.world.sandbox.requests
    .entries()
    .filter((entry) => entry.path === `/api/map/${encodeURIComponent(map.name)}`);
}

describe('featured map posts', () => {
  it('show the map’s votes, plays, creator and play link, and keep them when unfeatured', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await fixture.start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const map = unfeaturedMaps().find((m) => /^[A-Za-z0-9 ]+$/.test(m.name))!;
    await publish('map.featured', map);
    await drive(fixture.world.clock, process.announcements.pollOnce());

    const [post] = posted(fixture.world);
    const fields = fieldsOf(post!);
    expect(fields['Votes']).toBe(map.votes.toLocaleString('en-US'));
    expect(fields['Plays']).toBe(map.gameplays.toLocaleString('en-US'));
    expect(fields['Creator']).toBe(map.creatorName.replace(/[_*~`|\\]/g, (c) => `\\${c}`));
    expect(fields['Play it']).toBe(`https://krunker.io/?play=${map.name.replace(/ /g, '%20')}`);
    // One read of the map's record, whatever the number of channels.
    expect(mapRequests(map)).toHaveLength(1);
    expect(mapRequests(map)[0]?.status).toBe(200);

    await publish('map.unfeatured', map);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const messages = posted(fixture.world);
    expect(messages).toHaveLength(1);
    const edited = messages[0]!;
    expect(edited.id).toBe(post!.id);
    expect(edited.embeds[0]?.title).toContain('No longer featured');
    expect(fieldsOf(edited)['Votes']).toBe(fields['Votes']);
    expect(fieldsOf(edited)['Play it']).toBe(fields['Play it']);
  });

  it('still posts, without votes and plays, when the map’s record cannot be read', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await fixture.start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    fixture.world.sandbox.faults.inject({ match: /^\/api\/map\//, kind: 'status', status: 404 });
    const map = unfeaturedMaps()[0]!;
    await publish('map.featured', map);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const [post] = posted(fixture.world);
    expect(post?.embeds[0]?.title).toContain('Featured map');
    const fields = fieldsOf(post!);
    expect(fields['Votes']).toBeUndefined();
    expect(fields['Plays']).toBeUndefined();
    expect(fields['Play it']).toMatch(/^https:\/\/krunker\.io\/\?play=/);
  });

  it('encodes every markdown character of a map name in the play link', () => {
    expect(playUrl('Golf Course')).toBe('https://krunker.io/?play=Golf%20Course');
    expect(playUrl('[x](http://e.vil)*_~')).toBe(
      'https://krunker.io/?play=%5Bx%5D%28http%3A%2F%2Fe%2Evil%29%2A%5F%7E',
    );
    expect(playUrl('Ünï')).toBe('https://krunker.io/?play=%C3%9Cn%C3%AF');
    expect(playUrl('   ')).toBeUndefined();
    expect(playUrl(undefined)).toBeUndefined();
    expect(playUrl('x'.repeat(101))).toBeUndefined();
  });
});

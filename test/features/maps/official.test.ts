import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../../src/api/errors.ts';
import { officialMapNames, type OfficialMapsReader } from '../../../src/features/maps/official.ts';

/**
 * The official maps' names by id, shared by `/match`, `/player matches`, `/leaderboard` and `/me`: one read
 * of the cached `/maps` list; an API failure costs only the names, any other failure is not hidden.
 */
function reader(load: () => Promise<unknown>) {
  const debug = vi.fn();
  const loader = vi.fn(load);
  const ctx = { load: loader, services: { log: { debug } } } as unknown as OfficialMapsReader;
  return { ctx, debug, load: loader };
}

describe('officialMapNames', () => {
  it('names the official maps by id', async () => {
    const { ctx, load } = reader(() =>
      Promise.resolve([
        { id: 1, name: 'Dust' },
        { id: 7, name: 'Docks' },
      ]),
    );
    const names = await officialMapNames(ctx);
    expect([...names]).toEqual([
      [1, 'Dust'],
      [7, 'Docks'],
    ]);
    expect(load).toHaveBeenCalledWith('officialMaps', {});
  });

  it('reads nothing when no map needs a name', async () => {
    const { ctx, load } = reader(() => Promise.resolve([]));
    expect((await officialMapNames(ctx, false)).size).toBe(0);
    expect(load).not.toHaveBeenCalled();
  });

  it('gives no names when the API fails, and lets any other failure through', async () => {
    const failing = reader(() => Promise.reject(new NotFoundError('no maps', 'officialMaps')));
    expect((await officialMapNames(failing.ctx)).size).toBe(0);
    expect(failing.debug).toHaveBeenCalledTimes(1);
    const broken = reader(() => Promise.reject(new TypeError('bug')));
    await expect(officialMapNames(broken.ctx)).rejects.toThrow(TypeError);
  });
});

import { createRequire } from 'node:module';
import { DefaultRestOptions, type RESTOptions } from 'discord.js';
import { discordPriority, type DiscordGlobalLimit } from '../traffic/discord-global.ts';
import type { Priority } from '../traffic/window.ts';

type Agent = NonNullable<RESTOptions['agent']>;

let agent: Agent | undefined;

/**
 * The dispatcher every discord.js REST client of this process sends through: an agent of discord.js's own
 * undici (a dependency of `@discordjs/rest`, an older major than the game API transport's).
 *
 * Without one, discord.js takes the process-wide dispatcher, and that is whichever undici loaded first
 * installed: ours, Node's built-in one (a newer major on Node 24), or discord.js's. A newer major cannot
 * send an older one's form bodies ("action is not a function"), so every upload (charts, the profile
 * card) would fail or not depending on import order. Its own agent makes that order irrelevant.
 */
export function discordRestAgent(): Agent {
  if (agent === undefined) {
    const fromRest = createRequire(createRequire(import.meta.url).resolve('@discordjs/rest'));
    const { Agent: RestAgent } = fromRest('undici') as { Agent: new () => Agent };
    agent = new RestAgent();
  }
  return agent;
}

type MakeRequest = RESTOptions['makeRequest'];

/** Whether a request carries the bot's token: only those count against the bot's global limit. */
function authorised(init: Parameters<MakeRequest>[1]): boolean {
  const headers = init.headers;
  if (headers === undefined) return false;
  if (headers instanceof Headers) return headers.has('authorization');
  if (Array.isArray(headers)) return headers.some(([name]) => String(name).toLowerCase() === 'authorization');
  return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
}

/**
 * REST options that put the bot's one global limiter in front of discord.js (docs/adr/013). Every request
 * sent with the bot's token takes a slot first, as `fallback` priority unless it runs in `asBackground`
 * (the announcement fan-out); interaction callbacks and webhook-token requests, which Discord does not
 * count against the bot, go straight out. discord.js's own global counter (`globalRequestsPerSecond`,
 * 50 per second of this process alone, counted before a request leaves its queue) is turned off
 * (Infinity): two counters would each let through what the other holds back, and a 429 that Discord
 * answers all the same is still honoured by discord.js. A request's answer is told to its slot, which then
 * counts from when the request can have reached Discord (see DiscordGlobalLimit).
 */
export function limitedRestOptions(
  limit: DiscordGlobalLimit,
  fallback: Priority,
  send: MakeRequest = DefaultRestOptions.makeRequest,
): Pick<RESTOptions, 'makeRequest' | 'globalRequestsPerSecond'> {
  return {
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    async makeRequest(url, init) {
      if (!authorised(init)) return send(url, init);
      const slot = await limit.take(discordPriority(fallback), init.signal ?? undefined);
      try {
        return await send(url, init);
      } finally {
        // Counted from when it can have reached Discord, now that its answer (or its failure) is in.
        slot.answered();
      }
    },
  };
}

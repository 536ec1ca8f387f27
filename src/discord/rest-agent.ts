import { createRequire } from 'node:module';
import type { RESTOptions } from 'discord.js';

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

import { request } from 'node:http';
import { signPayload } from '../../src/announcements/webhook.ts';
import type { ApiEvent } from '../../src/dev/sandbox/index.ts';
import { sleep } from './net.ts';

/**
 * The game's webhook sender, as the bot's receiver expects it: each event POSTed signed to the receiver,
 * retried every second while it fails (a refusal, a reset, a 5xx, no answer in 5 s) until `deadline`.
 */
export interface WebhookTarget {
  readonly port: number;
  readonly path: string;
  readonly secret: string;
  readonly service: string;
}

export interface WebhookSender {
  send(event: ApiEvent): void;
  /** Failed attempts so far, and events never acknowledged. */
  stats(): { readonly failedAttempts: number; readonly unacknowledged: number };
  /** Waits for every delivery to end (acknowledged, or given up at the deadline). */
  drain(): Promise<void>;
}

function post(target: WebhookTarget, event: ApiEvent): Promise<number> {
  const body = Buffer.from(JSON.stringify(event));
  const signature = signPayload(target.secret, Math.floor(Date.now() / 1000), body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.path,
        method: 'POST',
        agent: false,
        timeout: 5_000,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          [`${target.service}-Signature`]: signature,
          [`${target.service}-Event-Id`]: String(event.id),
        },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      },
    );
    outgoing.once('timeout', () => outgoing.destroy(new Error('no answer in 5 s')));
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

export function webhookSender(target: WebhookTarget, deadline: () => number): WebhookSender {
  let failedAttempts = 0;
  let unacknowledged = 0;
  const deliveries: Promise<void>[] = [];
  const deliver = async (event: ApiEvent) => {
    while (performance.now() < deadline()) {
      const status = await post(target, event).catch(() => 0);
      if (status >= 200 && status < 300) return;
      failedAttempts += 1;
      await sleep(1_000);
    }
    unacknowledged += 1;
  };
  return {
    send: (event) => void deliveries.push(deliver(event)),
    stats: () => ({ failedAttempts, unacknowledged }),
    drain: async () => {
      await Promise.all(deliveries);
    },
  };
}

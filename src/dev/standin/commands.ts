import type { APIApplicationCommand } from 'discord.js';
import { checkCommand } from './command-checks.ts';
import { RestError, invalidForm, type FormIssue } from './errors.ts';
import { nextSnowflake } from './snowflake.ts';
import { isRecord } from './state.ts';

const maxChatInputCommands = 100;
const maxContextMenuCommands = 15;

type Scope = string | null;

interface Entry {
  type: number;
  name: string;
  command: APIApplicationCommand;
}

/** The application's global and per-guild commands, as bulk overwrites and single edits leave them. */
export class CommandStore {
  readonly #applicationId: string;
  readonly #scopes = new Map<string, Map<string, Entry>>();

  constructor(applicationId: string) {
    this.#applicationId = applicationId;
  }

  #scope(guildId: Scope): Map<string, Entry> {
    const key = guildId ?? 'global';
    let scope = this.#scopes.get(key);
    if (!scope) {
      scope = new Map();
      this.#scopes.set(key, scope);
    }
    return scope;
  }

  list(guildId: Scope): APIApplicationCommand[] {
    return [...this.#scope(guildId).values()].map((e) => structuredClone(e.command));
  }

  /** The command a user can invoke by that name in that guild (guild commands first). */
  find(name: string, guildId: Scope, type = 1): APIApplicationCommand | undefined {
    const match = (e: Entry) => e.name === name && e.type === type;
    const inGuild = guildId === null ? undefined : [...this.#scope(guildId).values()].find(match);
    return (inGuild ?? [...this.#scope(null).values()].find(match))?.command;
  }

  bulkOverwrite(guildId: Scope, body: unknown): APIApplicationCommand[] {
    if (!Array.isArray(body)) {
      throw invalidForm([
        { path: [], code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' },
      ]);
    }
    const issues: FormIssue[] = [];
    body.forEach((raw, i) => checkCommand(raw, [i], issues));
    const seen = new Set<string>();
    const counts = new Map<number, number>();
    body.forEach((raw: unknown, i) => {
      if (!isRecord(raw) || typeof raw.name !== 'string') return;
      const type = typeOf(raw);
      counts.set(type, (counts.get(type) ?? 0) + 1);
      const key = `${type}:${raw.name}`;
      if (seen.has(key)) {
        issues.push({
          path: [i, 'name'],
          code: 'APPLICATION_COMMANDS_DUPLICATE_NAME',
          message: 'Application command names must be unique',
        });
      }
      seen.add(key);
    });
    if (issues.length > 0) throw invalidForm(issues);
    if ((counts.get(1) ?? 0) > maxChatInputCommands) {
      throw new RestError(
        400,
        30032,
        `Maximum number of application commands reached (${maxChatInputCommands})`,
      );
    }
    if ((counts.get(2) ?? 0) > maxContextMenuCommands || (counts.get(3) ?? 0) > maxContextMenuCommands) {
      throw new RestError(
        400,
        30032,
        `Maximum number of application commands reached (${maxContextMenuCommands})`,
      );
    }
    const scope = this.#scope(guildId);
    const previous = [...scope.values()];
    scope.clear();
    for (const raw of body as Array<Record<string, unknown>>) {
      const existing = previous.find((e) => e.name === raw.name && e.type === typeOf(raw));
      const entry = this.#build(guildId, raw, existing?.command.id);
      scope.set(entry.command.id, entry);
    }
    return this.list(guildId);
  }

  /** POST: creates the command, or replaces the one with the same name and type (`created` false). */
  upsert(guildId: Scope, raw: unknown): { command: APIApplicationCommand; created: boolean } {
    const issues: FormIssue[] = [];
    checkCommand(raw, [], issues);
    if (issues.length > 0 || !isRecord(raw)) throw invalidForm(issues);
    const scope = this.#scope(guildId);
    const type = typeOf(raw);
    const existing = [...scope.values()].find((e) => e.name === raw.name && e.type === type);
    if (
      !existing &&
      type === 1 &&
      [...scope.values()].filter((e) => e.type === 1).length >= maxChatInputCommands
    ) {
      throw new RestError(
        400,
        30032,
        `Maximum number of application commands reached (${maxChatInputCommands})`,
      );
    }
    const entry = this.#build(guildId, raw, existing?.command.id);
    scope.set(entry.command.id, entry);
    return { command: structuredClone(entry.command), created: !existing };
  }

  get(guildId: Scope, id: string): APIApplicationCommand {
    const entry = this.#scope(guildId).get(id);
    if (!entry) throw new RestError(404, 10063);
    return structuredClone(entry.command);
  }

  edit(guildId: Scope, id: string, patch: unknown): APIApplicationCommand {
    const current = this.#scope(guildId).get(id);
    if (!current) throw new RestError(404, 10063);
    if (!isRecord(patch))
      throw invalidForm([
        { path: [], code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' },
      ]);
    const merged: Record<string, unknown> = {
      ...(current.command as unknown as Record<string, unknown>),
      ...patch,
    };
    const issues: FormIssue[] = [];
    checkCommand(merged, [], issues);
    if (issues.length > 0) throw invalidForm(issues);
    const entry = this.#build(guildId, merged, id);
    this.#scope(guildId).set(id, entry);
    return structuredClone(entry.command);
  }

  delete(guildId: Scope, id: string): void {
    if (!this.#scope(guildId).delete(id)) throw new RestError(404, 10063);
  }

  #build(guildId: Scope, raw: Record<string, unknown>, id: string | undefined): Entry {
    const type = typeOf(raw);
    const options = Array.isArray(raw.options) && raw.options.length > 0 ? { options: raw.options } : {};
    const command = {
      id: id ?? nextSnowflake(),
      application_id: this.#applicationId,
      version: nextSnowflake(),
      default_member_permissions: raw.default_member_permissions ?? null,
      type,
      name: raw.name,
      name_localizations: raw.name_localizations ?? null,
      description: typeof raw.description === 'string' ? raw.description : '',
      description_localizations: raw.description_localizations ?? null,
      ...(guildId === null ? { dm_permission: raw.dm_permission ?? true } : { guild_id: guildId }),
      contexts: raw.contexts ?? null,
      integration_types: raw.integration_types ?? [0],
      nsfw: raw.nsfw ?? false,
      ...options,
    };
    // The body passed checkCommand, so it has the shape Discord would store.
    return { type, name: String(raw.name), command: command as unknown as APIApplicationCommand };
  }
}

function typeOf(raw: Record<string, unknown>): number {
  return typeof raw.type === 'number' ? raw.type : 1;
}

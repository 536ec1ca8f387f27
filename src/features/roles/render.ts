import { ButtonStyle, ComponentType, type APIEmbed } from 'discord.js';
import type { Translator } from '../../i18n/index.ts';
import type { DangerousPermission } from './dangerous.ts';
import type { RoleRule } from './rules.ts';
import type { SyncSummary } from './sync.ts';
import { num, regionLabel, text, timestamp, fit } from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/** `/roles`: the rules, what adding or removing one did, and what a sync did or would do. */
const MAX_LINES = 20;

/** Each role's dangerous permissions (Administrator, Manage Server…), for the roles that have any. */
export type RoleDangers = ReadonlyMap<string, readonly DangerousPermission[]>;

function roles(rule: Pick<RoleRule, 'roleIds'>): string {
  return rule.roleIds.map((id) => `<@&${id}>`).join(' ');
}

/** What a rule checks, in the reader's language. */
export function describeRule(t: Translator, rule: Pick<RoleRule, 'kind' | 'params'>): string {
  switch (rule.kind) {
    case 'verified':
      return t.t('roles:kinds.verified');
    case 'clan':
      return t.t('roles:kinds.clan', { clan: text(rule.params.clan ?? '', 100) });
    case 'ranked':
      return rule.params.region === undefined
        ? t.t('roles:kinds.rankedAny', { mmr: num(t, rule.params.threshold) })
        : t.t('roles:kinds.ranked', {
            mmr: num(t, rule.params.threshold),
            region: regionLabel(t, rule.params.region),
          });
    case 'level':
      return t.t('roles:kinds.level', { level: num(t, rule.params.threshold) });
  }
}

/** The dangerous permissions the rule's roles carry, named in the reader's language; '' for none. */
function dangerNote(t: Translator, rule: Pick<RoleRule, 'roleIds'>, dangers: RoleDangers): string {
  const found = new Set(rule.roleIds.flatMap((id) => dangers.get(id) ?? []));
  if (found.size === 0) return '';
  const names = [...found].map((name) => t.t(`roles:permissions.${name}`)).join(', ');
  return ` · ⚠ ${t.t('roles:list.dangerous', { permissions: names })}`;
}

function ruleLine(t: Translator, rule: RoleRule, dangers: RoleDangers = new Map()): string {
  const line = `\`${rule.id}\` ${describeRule(t, rule)} → ${roles(rule)}${dangerNote(t, rule, dangers)}`;
  return rule.state.status === 'active'
    ? line
    : `${line} · ⚠️ ${t.t('roles:list.deletedRole', { when: timestamp(rule.state.at, 'R') })}`;
}

/** The rules; `dangers` marks those naming a role with a dangerous permission (as Discord has it now). */
export function renderRoleRules(
  t: Translator,
  rules: readonly RoleRule[],
  dangers: RoleDangers = new Map(),
): ReplyPayload {
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('roles:list.title', { n: num(t, rules.length) }),
    description:
      rules.length === 0
        ? t.t('roles:list.none')
        : rules
            .slice(0, 50)
            .map((rule) => ruleLine(t, rule, dangers))
            .join('\n'),
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

export function renderRuleAdded(t: Translator, rule: RoleRule): ReplyPayload {
  return {
    embeds: [fit({ color: Colors.success, description: t.t('roles:added', { rule: ruleLine(t, rule) }) })],
    ephemeral: true,
  };
}

/**
 * A rule naming a dangerous role, not saved yet: what it would give, and the buttons that save it or drop
 * it (ids made by the command; undefined ids leave the buttons out, and the rule unsaved).
 */
export function renderDangerousRule(
  t: Translator,
  rule: Pick<RoleRule, 'kind' | 'params' | 'roleIds'>,
  dangers: RoleDangers,
  ids: { readonly confirm: string | undefined; readonly cancel: string | undefined },
  expiresAt: number,
): ReplyPayload {
  const line = `${describeRule(t, rule)} → ${roles(rule)}${dangerNote(t, rule, dangers)}`;
  const embed: APIEmbed = {
    color: Colors.warning,
    title: t.t('roles:confirm.title'),
    description: t.t('roles:confirm.description', { rule: line, until: timestamp(expiresAt, 'R') }),
  };
  const { confirm, cancel } = ids;
  return {
    embeds: [fit(embed)],
    components:
      confirm === undefined || cancel === undefined
        ? []
        : [
            {
              type: ComponentType.ActionRow,
              components: [
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Danger,
                  custom_id: confirm,
                  label: t.t('roles:confirm.confirm'),
                },
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Secondary,
                  custom_id: cancel,
                  label: t.t('roles:confirm.cancel'),
                },
              ],
            },
          ],
    ephemeral: true,
  };
}

/** The confirmation dropped: nothing saved. */
export function renderRuleCancelled(t: Translator): ReplyPayload {
  return {
    embeds: [{ color: Colors.neutral, description: t.t('roles:confirm.cancelled') }],
    components: [],
    ephemeral: true,
  };
}

export function renderRuleRemoved(t: Translator, rule: RoleRule, removed: number): ReplyPayload {
  return {
    embeds: [
      fit({
        color: Colors.neutral,
        description: t.t('roles:removed', { rule: ruleLine(t, rule), n: num(t, removed) }),
      }),
    ],
    ephemeral: true,
  };
}

/** A sync's outcome, or a preview's plan (`dryRun`): counts, then the first changes. */
export function renderSync(t: Translator, summary: SyncSummary, dryRun: boolean): ReplyPayload {
  const added = summary.changes.filter((change) => change.action === 'add').length;
  const removed = summary.changes.length - added;
  const lines = summary.changes.slice(0, MAX_LINES).map((change) =>
    t.t(change.action === 'add' ? 'roles:sync.addLine' : 'roles:sync.removeLine', {
      role: `<@&${change.roleId}>`,
      user: `<@${change.userId}>`,
      rule: change.rule.id,
    }),
  );
  if (summary.changes.length > MAX_LINES)
    lines.push(t.t('roles:sync.more', { n: num(t, summary.changes.length - MAX_LINES) }));
  const notes = [
    ...(summary.withoutNumbers > 0
      ? [
          t.t('roles:sync.withoutNumbers', {
            count: summary.withoutNumbers,
            n: num(t, summary.withoutNumbers),
          }),
        ]
      : []),
    ...(summary.left > 0 ? [t.t('roles:sync.left', { count: summary.left, n: num(t, summary.left) })] : []),
    ...(summary.disabledRules.length > 0
      ? [t.t('roles:sync.disabled', { rules: summary.disabledRules.map((id) => `\`${id}\``).join(', ') })]
      : []),
    ...(summary.refused ? [t.t('roles:sync.refused')] : []),
    ...(summary.unavailable === undefined
      ? []
      : [t.t('roles:sync.unavailable', { code: String(summary.unavailable) })]),
  ];
  const embed: APIEmbed = {
    color:
      summary.refused || summary.unavailable !== undefined
        ? Colors.warning
        : dryRun
          ? Colors.info
          : Colors.success,
    title: t.t(dryRun ? 'roles:sync.previewTitle' : 'roles:sync.title'),
    description: [
      t.t(dryRun ? 'roles:sync.wouldChange' : 'roles:sync.changed', {
        count: summary.members,
        members: num(t, summary.members),
        added: num(t, added),
        removed: num(t, removed),
      }),
      ...lines,
      ...notes,
    ].join('\n'),
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

import { z } from 'zod';
import { RestError, invalidForm, type FormIssue } from './errors.ts';
import { isRecord } from './state.ts';

/** Message flags Discord lets a bot set when it creates a message (crossposted etc. are Discord's own). */
export const MessageFlag = {
  SuppressEmbeds: 1 << 2,
  Ephemeral: 1 << 6,
  Loading: 1 << 7,
  SuppressNotifications: 1 << 12,
  IsComponentsV2: 1 << 15,
} as const;

const nullishString = (max: number) => z.string().max(max).nullish();

const embedSchema = z.looseObject({
  title: nullishString(256),
  description: nullishString(4096),
  url: z.string().nullish(),
  timestamp: z.string().nullish(),
  color: z.number().int().min(0).max(0xffffff).nullish(),
  footer: z.looseObject({ text: z.string().max(2048), icon_url: z.string().nullish() }).nullish(),
  author: z
    .looseObject({ name: z.string().max(256), url: z.string().nullish(), icon_url: z.string().nullish() })
    .nullish(),
  image: z.looseObject({ url: z.string() }).nullish(),
  thumbnail: z.looseObject({ url: z.string() }).nullish(),
  fields: z
    .array(
      z.looseObject({
        name: z.string().min(1).max(256),
        value: z.string().min(1).max(1024),
        inline: z.boolean().nullish(),
      }),
    )
    .max(25)
    .nullish(),
});

const allowedMentionsSchema = z.looseObject({
  parse: z.array(z.enum(['roles', 'users', 'everyone'])).nullish(),
  users: z.array(z.string()).max(100).nullish(),
  roles: z.array(z.string()).max(100).nullish(),
  replied_user: z.boolean().nullish(),
});

const messageSchema = z.looseObject({
  content: nullishString(2000),
  embeds: z.array(embedSchema).max(10).nullish(),
  components: z.array(z.unknown()).nullish(),
  attachments: z
    .array(
      z.looseObject({
        id: z.union([z.string(), z.number()]),
        filename: z.string().max(1024).nullish(),
        description: z.string().max(1024).nullish(),
      }),
    )
    .max(10)
    .nullish(),
  flags: z.number().int().nullish(),
  allowed_mentions: allowedMentionsSchema.nullish(),
  tts: z.boolean().nullish(),
  nonce: z.union([z.string().max(25), z.number().int()]).nullish(),
  enforce_nonce: z.boolean().nullish(),
  message_reference: z
    .looseObject({
      type: z.number().int().nullish(),
      message_id: z.string().nullish(),
      channel_id: z.string().nullish(),
      guild_id: z.string().nullish(),
      fail_if_not_exists: z.boolean().nullish(),
    })
    .nullish(),
  sticker_ids: z.array(z.string()).max(3).nullish(),
  poll: z.unknown().nullish(),
});

export type MessageBody = z.infer<typeof messageSchema>;

export function zodIssues(error: z.ZodError, prefix: Array<string | number> = []): FormIssue[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'too_big') {
      return {
        path,
        code: 'BASE_TYPE_MAX_LENGTH',
        message: `Must be ${String(issue.maximum)} or fewer in length.`,
      };
    }
    if (issue.code === 'too_small') {
      return {
        path,
        code: 'BASE_TYPE_MIN_LENGTH',
        message: `Must be ${String(issue.minimum)} or more in length.`,
      };
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return { path, code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
    }
    return { path, code: 'BASE_TYPE_INVALID', message: 'Invalid Form Body' };
  });
}

/** Checks a message create/edit body like Discord does; throws the 400 Discord would answer. */
export function parseMessageBody(raw: unknown): MessageBody {
  if (!isRecord(raw))
    throw invalidForm([
      { path: [], code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' },
    ]);
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) throw invalidForm(zodIssues(parsed.error));
  const body = parsed.data;
  const issues: FormIssue[] = [];
  const embeds = body.embeds ?? [];
  let total = 0;
  for (const embed of embeds) {
    total += (embed.title ?? '').length + (embed.description ?? '').length;
    total += (embed.footer?.text ?? '').length + (embed.author?.name ?? '').length;
    for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  }
  if (total > 6000) {
    issues.push({
      path: ['embeds'],
      code: 'MESSAGE_EMBEDS_TOO_LONG',
      message: 'Embed size exceeds maximum size of 6000',
    });
  }
  const mentions = body.allowed_mentions;
  if (mentions?.parse?.includes('users') && mentions.users && mentions.users.length > 0) {
    issues.push({
      path: ['allowed_mentions'],
      code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
      message: 'parse:["users"] and users: [ids...] are mutually exclusive.',
    });
  }
  if (mentions?.parse?.includes('roles') && mentions.roles && mentions.roles.length > 0) {
    issues.push({
      path: ['allowed_mentions'],
      code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
      message: 'parse:["roles"] and roles: [ids...] are mutually exclusive.',
    });
  }
  const componentsV2 = ((body.flags ?? 0) & MessageFlag.IsComponentsV2) !== 0;
  if (componentsV2 && ((body.content ?? '') !== '' || embeds.length > 0)) {
    issues.push({
      path: ['content'],
      code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
      message: "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
    });
  }
  issues.push(...componentIssues(body.components ?? [], componentsV2));
  if (issues.length > 0) throw invalidForm(issues);
  return body;
}

/** A message with nothing to show is refused (50006), after an edit too. */
export function assertNotEmpty(m: {
  content: string;
  embeds: readonly unknown[];
  components: readonly unknown[];
  attachments: readonly unknown[];
  stickers?: number;
  poll?: boolean;
}): void {
  if (
    m.content.trim() === '' &&
    m.embeds.length === 0 &&
    m.components.length === 0 &&
    m.attachments.length === 0 &&
    (m.stickers ?? 0) === 0 &&
    m.poll !== true
  ) {
    throw new RestError(400, 50006);
  }
}

const selectTypes = new Set([3, 5, 6, 7, 8]);

function componentIssues(components: readonly unknown[], componentsV2: boolean): FormIssue[] {
  const issues: FormIssue[] = [];
  const seen = new Set<string>();
  const checkCustomId = (
    component: Record<string, unknown>,
    path: Array<string | number>,
    required: boolean,
  ): void => {
    const customId = component.custom_id;
    if (customId === undefined || customId === null) {
      if (required)
        issues.push({
          path: [...path, 'custom_id'],
          code: 'BASE_TYPE_REQUIRED',
          message: 'This field is required',
        });
      return;
    }
    if (typeof customId !== 'string' || customId.length < 1 || customId.length > 100) {
      issues.push({
        path: [...path, 'custom_id'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 100 in length.',
      });
      return;
    }
    if (seen.has(customId)) {
      issues.push({
        path: [...path, 'custom_id'],
        code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
        message: 'Component custom id cannot be duplicated',
      });
    }
    seen.add(customId);
  };
  const checkInteractive = (component: Record<string, unknown>, path: Array<string | number>): void => {
    if (component.type === 2) {
      const style = component.style;
      if (typeof style !== 'number' || style < 1 || style > 6) {
        issues.push({
          path: [...path, 'style'],
          code: 'BASE_TYPE_CHOICES',
          message: 'Value must be one of (1, 2, 3, 4, 5, 6).',
        });
      }
      if (style === 5 && typeof component.url !== 'string') {
        issues.push({
          path: [...path, 'url'],
          code: 'BASE_TYPE_REQUIRED',
          message: 'This field is required',
        });
      }
      checkCustomId(component, path, style !== 5 && style !== 6);
      if (typeof component.label === 'string' && component.label.length > 80) {
        issues.push({
          path: [...path, 'label'],
          code: 'BASE_TYPE_MAX_LENGTH',
          message: 'Must be 80 or fewer in length.',
        });
      }
      return;
    }
    if (typeof component.type === 'number' && selectTypes.has(component.type)) {
      checkCustomId(component, path, true);
      if (typeof component.placeholder === 'string' && component.placeholder.length > 150) {
        issues.push({
          path: [...path, 'placeholder'],
          code: 'BASE_TYPE_MAX_LENGTH',
          message: 'Must be 150 or fewer in length.',
        });
      }
      if (component.type === 3) {
        const options = Array.isArray(component.options) ? (component.options as unknown[]) : [];
        if (options.length < 1 || options.length > 25) {
          issues.push({
            path: [...path, 'options'],
            code: 'BASE_TYPE_BAD_LENGTH',
            message: 'Must be between 1 and 25 in length.',
          });
        }
        options.forEach((option, i) => {
          if (!isRecord(option)) return;
          for (const key of ['label', 'value'] as const) {
            const value = option[key];
            if (typeof value !== 'string' || value.length < 1 || value.length > 100) {
              issues.push({
                path: [...path, 'options', i, key],
                code: 'BASE_TYPE_BAD_LENGTH',
                message: 'Must be between 1 and 100 in length.',
              });
            }
          }
          if (typeof option.description === 'string' && option.description.length > 100) {
            issues.push({
              path: [...path, 'options', i, 'description'],
              code: 'BASE_TYPE_MAX_LENGTH',
              message: 'Must be 100 or fewer in length.',
            });
          }
        });
      }
      return;
    }
    issues.push({
      path: [...path, 'type'],
      code: 'UNION_TYPE_CHOICES',
      message: 'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
    });
  };
  if (!componentsV2) {
    if (components.length > 5) {
      issues.push({
        path: ['components'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: 'Must be 5 or fewer in length.',
      });
    }
    components.forEach((row, r) => {
      const path = ['components', r];
      if (!isRecord(row) || row.type !== 1 || !Array.isArray(row.components)) {
        issues.push({
          path: [...path, 'type'],
          code: 'UNION_TYPE_CHOICES',
          message: 'Value of field "type" must be one of (1,).',
        });
        return;
      }
      const children = row.components as unknown[];
      if (children.length < 1 || children.length > 5) {
        issues.push({
          path: [...path, 'components'],
          code: 'BASE_TYPE_BAD_LENGTH',
          message: 'Must be between 1 and 5 in length.',
        });
      }
      children.forEach((child, c) => {
        if (!isRecord(child)) return;
        if (typeof child.type === 'number' && selectTypes.has(child.type) && children.length > 1) {
          issues.push({
            path: [...path, 'components', c],
            code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
            message: 'The specified component exceeds the maximum width',
          });
        }
        checkInteractive(child, [...path, 'components', c]);
      });
    });
    return issues;
  }
  const walk = (node: unknown, path: Array<string | number>): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, [...path, i]));
      return;
    }
    if (!isRecord(node)) return;
    if (node.type === 2 || (typeof node.type === 'number' && selectTypes.has(node.type))) {
      checkInteractive(node, path);
      return;
    }
    if ('components' in node) walk(node.components, [...path, 'components']);
    if ('accessory' in node) walk(node.accessory, [...path, 'accessory']);
  };
  walk(components, ['components']);
  return issues;
}

const choiceSchema = z.looseObject({
  name: z.string().min(1).max(100),
  value: z.union([z.string().max(100), z.number()]),
});

export function parseAutocompleteChoices(data: unknown): Array<{ name: string; value: string | number }> {
  const parsed = z.looseObject({ choices: z.array(choiceSchema).max(25) }).safeParse(data);
  if (!parsed.success) throw invalidForm(zodIssues(parsed.error, ['data']));
  return parsed.data.choices;
}

const modalSchema = z.looseObject({
  custom_id: z.string().min(1).max(100),
  title: z.string().min(1).max(45),
  components: z.array(z.unknown()).min(1).max(5),
});

export function parseModal(data: unknown): z.infer<typeof modalSchema> {
  const parsed = modalSchema.safeParse(data);
  if (!parsed.success) throw invalidForm(zodIssues(parsed.error, ['data']));
  return parsed.data;
}

/** The text inputs a modal shows, by custom id, and whether it wraps them in labels (type 18) or rows (type 1). */
export function modalInputs(modal: { components: readonly unknown[] }): Map<string, 'label' | 'row'> {
  const inputs = new Map<string, 'label' | 'row'>();
  for (const top of modal.components) {
    if (!isRecord(top)) continue;
    if (top.type === 18 && isRecord(top.component) && typeof top.component.custom_id === 'string') {
      inputs.set(top.component.custom_id, 'label');
    }
    if (top.type === 1 && Array.isArray(top.components)) {
      for (const child of top.components as unknown[]) {
        if (isRecord(child) && typeof child.custom_id === 'string') inputs.set(child.custom_id, 'row');
      }
    }
  }
  return inputs;
}

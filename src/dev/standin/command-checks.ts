import { Locale } from 'discord.js';
import type { FormIssue } from './errors.ts';
import { isRecord } from './state.ts';

/** Discord's rule for chat-input command and option names (they must also be lowercase). */
export const commandNamePattern = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

const locales = new Set<string>(Object.values(Locale));

type Path = Array<string | number>;

function checkName(value: unknown, path: Path, chatInput: boolean, issues: FormIssue[]): void {
  if (typeof value !== 'string') {
    issues.push({ path, code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
    return;
  }
  if (chatInput) {
    if (!commandNamePattern.test(value) || value !== value.toLowerCase()) {
      issues.push({ path, code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' });
    }
  } else if (value.length < 1 || value.length > 32) {
    issues.push({ path, code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 32 in length.' });
  }
}

function checkDescription(value: unknown, path: Path, issues: FormIssue[]): void {
  if (typeof value !== 'string' || value.length < 1 || value.length > 100) {
    issues.push({ path, code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' });
  }
}

function checkLocalizations(
  value: unknown,
  path: Path,
  issues: FormIssue[],
  check: (v: unknown, p: Path) => void,
): void {
  if (value === undefined || value === null) return;
  if (!isRecord(value)) {
    issues.push({ path, code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' });
    return;
  }
  for (const [locale, localized] of Object.entries(value)) {
    if (!locales.has(locale)) {
      issues.push({
        path: [...path, locale],
        code: 'LOCALE_INVALID',
        message: `"${locale}" is not a valid locale.`,
      });
      continue;
    }
    check(localized, [...path, locale]);
  }
}

function checkOptions(options: unknown, path: Path, depth: number, issues: FormIssue[]): number {
  if (options === undefined || options === null) return 0;
  if (!Array.isArray(options)) {
    issues.push({ path, code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' });
    return 0;
  }
  if (options.length > 25) {
    issues.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
  }
  let chars = 0;
  let sawOptional = false;
  const names = new Set<string>();
  const kinds = new Set<'sub' | 'basic'>();
  (options as unknown[]).forEach((option, i) => {
    const here = [...path, i];
    if (!isRecord(option)) {
      issues.push({
        path: here,
        code: 'DICT_TYPE_CONVERT',
        message: 'Only dictionaries may be used in a DictType',
      });
      return;
    }
    const type = option.type;
    if (typeof type !== 'number' || type < 1 || type > 11) {
      issues.push({
        path: [...here, 'type'],
        code: 'BASE_TYPE_CHOICES',
        message: 'Value must be one of (1..11).',
      });
      return;
    }
    const isSub = type === 1 || type === 2;
    kinds.add(isSub ? 'sub' : 'basic');
    if (isSub && depth >= 2 && type === 2) {
      issues.push({
        path: [...here, 'type'],
        code: 'APPLICATION_COMMAND_OPTION_TYPE_INVALID',
        message: 'Subcommand groups cannot be nested',
      });
    }
    if (isSub && depth >= 3) {
      issues.push({
        path: [...here, 'type'],
        code: 'APPLICATION_COMMAND_OPTION_TYPE_INVALID',
        message: 'Subcommands cannot be nested this deep',
      });
    }
    checkName(option.name, [...here, 'name'], true, issues);
    checkDescription(option.description, [...here, 'description'], issues);
    checkLocalizations(option.name_localizations, [...here, 'name_localizations'], issues, (v, p) =>
      checkName(v, p, true, issues),
    );
    checkLocalizations(
      option.description_localizations,
      [...here, 'description_localizations'],
      issues,
      (v, p) => checkDescription(v, p, issues),
    );
    if (typeof option.name === 'string') {
      if (names.has(option.name)) {
        issues.push({
          path: [...here, 'name'],
          code: 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
          message: 'Option names must be unique',
        });
      }
      names.add(option.name);
      chars += option.name.length;
    }
    if (typeof option.description === 'string') chars += option.description.length;
    if (!isSub) {
      const required = option.required === true;
      if (required && sawOptional) {
        issues.push({
          path: [...here, 'required'],
          code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          message: 'Required options must be placed before non-required options',
        });
      }
      if (!required) sawOptional = true;
    }
    if (option.choices !== undefined && option.choices !== null) {
      if (type !== 3 && type !== 4 && type !== 10) {
        issues.push({
          path: [...here, 'choices'],
          code: 'APPLICATION_COMMAND_OPTION_CHOICES_INVALID',
          message: 'Choices are not allowed for this option type',
        });
      } else if (!Array.isArray(option.choices) || option.choices.length > 25) {
        issues.push({
          path: [...here, 'choices'],
          code: 'BASE_TYPE_MAX_LENGTH',
          message: 'Must be 25 or fewer in length.',
        });
      } else {
        if (option.autocomplete === true && option.choices.length > 0) {
          issues.push({
            path: [...here, 'autocomplete'],
            code: 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES_EXCLUSIVE',
            message: 'Autocomplete and choices are mutually exclusive',
          });
        }
        (option.choices as unknown[]).forEach((choice, c) => {
          const at = [...here, 'choices', c];
          if (!isRecord(choice)) return;
          if (typeof choice.name !== 'string' || choice.name.length < 1 || choice.name.length > 100) {
            issues.push({
              path: [...at, 'name'],
              code: 'BASE_TYPE_BAD_LENGTH',
              message: 'Must be between 1 and 100 in length.',
            });
          } else {
            chars += choice.name.length;
          }
          checkLocalizations(choice.name_localizations, [...at, 'name_localizations'], issues, (v, p) => {
            if (typeof v !== 'string' || v.length < 1 || v.length > 100) {
              issues.push({
                path: p,
                code: 'BASE_TYPE_BAD_LENGTH',
                message: 'Must be between 1 and 100 in length.',
              });
            }
          });
          const value = choice.value;
          const fits =
            type === 3
              ? typeof value === 'string' && value.length <= 100
              : type === 4
                ? Number.isInteger(value)
                : typeof value === 'number';
          if (!fits) {
            issues.push({
              path: [...at, 'value'],
              code: 'BASE_TYPE_INVALID',
              message: 'Invalid choice value for the option type',
            });
          } else {
            chars += String(value).length;
          }
        });
      }
    }
    if (isSub)
      chars += checkOptions(option.options, [...here, 'options'], depth + (type === 2 ? 1 : 2), issues);
    if (type === 2 && Array.isArray(option.options)) {
      (option.options as unknown[]).forEach((child, c) => {
        if (isRecord(child) && child.type !== 1) {
          issues.push({
            path: [...here, 'options', c, 'type'],
            code: 'APPLICATION_COMMAND_OPTION_TYPE_INVALID',
            message: 'Subcommand groups may only contain subcommands',
          });
        }
      });
    }
  });
  if (kinds.size > 1) {
    issues.push({
      path,
      code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
      message: 'Subcommands cannot be mixed with other options',
    });
  }
  return chars;
}

/** Collects in `issues` what Discord would refuse in a command body, at `path`. */
export function checkCommand(raw: unknown, path: Path, issues: FormIssue[]): void {
  if (!isRecord(raw)) {
    issues.push({ path, code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' });
    return;
  }
  const type = raw.type ?? 1;
  if (type !== 1 && type !== 2 && type !== 3 && type !== 4) {
    issues.push({
      path: [...path, 'type'],
      code: 'BASE_TYPE_CHOICES',
      message: 'Value must be one of (1, 2, 3, 4).',
    });
    return;
  }
  const chatInput = type === 1;
  checkName(raw.name, [...path, 'name'], chatInput, issues);
  checkLocalizations(raw.name_localizations, [...path, 'name_localizations'], issues, (v, p) =>
    checkName(v, p, chatInput, issues),
  );
  if (chatInput) {
    checkDescription(raw.description, [...path, 'description'], issues);
    checkLocalizations(
      raw.description_localizations,
      [...path, 'description_localizations'],
      issues,
      (v, p) => checkDescription(v, p, issues),
    );
    const chars =
      (typeof raw.name === 'string' ? raw.name.length : 0) +
      (typeof raw.description === 'string' ? raw.description.length : 0) +
      checkOptions(raw.options, [...path, 'options'], 1, issues);
    if (chars > 4000) {
      issues.push({
        path,
        code: 'APPLICATION_COMMAND_TOO_LARGE',
        message: 'Command exceeds maximum size (4000)',
      });
    }
  } else if (raw.description !== undefined && raw.description !== '' && raw.description !== null) {
    issues.push({
      path: [...path, 'description'],
      code: 'APPLICATION_COMMAND_INVALID_DESCRIPTION',
      message: 'Context menu commands cannot have a description',
    });
  }
  const perms = raw.default_member_permissions;
  if (perms !== undefined && perms !== null && (typeof perms !== 'string' || !/^\d+$/.test(perms))) {
    issues.push({
      path: [...path, 'default_member_permissions'],
      code: 'BASE_TYPE_INVALID',
      message: 'Invalid permissions',
    });
  }
}

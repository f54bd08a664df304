/**
 * What `npm run keys` says about itself: the commands, the options each takes, and the texts of
 * `--help` and of a mistake. The command reads its options from here too, so the help cannot
 * list an option the command refuses, nor miss one it takes.
 */
import { PLAN_IDS, PLANS } from '../../shared/plans';
import type { OptionSpecs } from './command-line';

export const KEY_COMMANDS = ['create', 'list', 'revoke', 'requests'] as const;
export type KeyCommand = (typeof KEY_COMMANDS)[number];

export const KEY_OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  quota: { type: 'string' },
  rate: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies OptionSpecs;

export type KeyOption = keyof typeof KEY_OPTIONS;

const RUN = 'npm run keys --';
const HELP_LINE = '  -h, --help    show this text';
const JSON_LIST = '  --json        print a JSON array instead of a table';
const pro = PLANS.pro;

interface CommandText {
  options: readonly KeyOption[];
  /** The part of the usage line after the command's name. */
  arguments: string;
  /** One line for the list of commands. */
  brief: string;
  /** The help's body: what it does, then one line per option. */
  body: string;
}

export const KEY_COMMAND_TEXTS: Record<KeyCommand, CommandText> = {
  create: {
    options: ['name', 'plan', 'quota', 'rate', 'json'],
    arguments: `--name NAME --plan ${PLAN_IDS.join('|')} [--quota N] [--rate N] [--json]`,
    brief: 'make a key and print it once',
    body: `Makes a key and prints it once: only its hash is stored, so keep it when it is shown.

  --name NAME   who the key is for (required; quote a name with spaces)
  --plan PLAN   pro: ${pro.monthlyQuota} requests a month, ${pro.ratePerMinute} a minute; custom: limits of its own
  --quota N     custom only: requests a month (without it, Pro's ${pro.monthlyQuota})
  --rate N      custom only: requests a minute (without it, Pro's ${pro.ratePerMinute})
  --json        print {"id","name","plan","key","monthlyQuota","ratePerMinute"} instead of text
${HELP_LINE}`,
  },
  list: {
    options: ['json'],
    arguments: '[--json]',
    brief: "every key with its limits and this month's usage",
    body: `Lists every key: id, name, plan, the key's first characters, its limits, the requests it made
this month, when it was created and when it was revoked. The key itself is never shown again.

${JSON_LIST}
${HELP_LINE}`,
  },
  revoke: {
    options: [],
    arguments: 'ID',
    brief: 'stop a key at once',
    body: `Revokes the key with that id (from list): running servers refuse it at once. Exits 1 when
there is no active key with that id.

${HELP_LINE}`,
  },
  requests: {
    options: ['json'],
    arguments: '[--json]',
    brief: "the access requests sent from the site's form",
    body: `Lists the access requests sent from the site's form: name, email, company, plan, message.

${JSON_LIST}
${HELP_LINE}`,
  },
};

export function isKeyCommand(value: string | undefined): value is KeyCommand {
  return (KEY_COMMANDS as readonly string[]).includes(value ?? '');
}

/** `usage: npm run keys -- create --name NAME …` */
export function commandUsage(command: KeyCommand): string {
  return `usage: ${RUN} ${command} ${KEY_COMMAND_TEXTS[command].arguments}`;
}

/** Every command's usage line: what a mistake made before any command is known prints. */
export const KEYS_SYNOPSIS = `usage:\n${KEY_COMMANDS.map((c) => `  ${RUN} ${c} ${KEY_COMMAND_TEXTS[c].arguments}`).join('\n')}\n  ${RUN} help [COMMAND]`;

/** `npm run keys -- --help`, or `help COMMAND` / `COMMAND --help` with a command. */
export function keysHelp(command?: KeyCommand): string {
  if (command) return `${commandUsage(command)}\n\n${KEY_COMMAND_TEXTS[command].body}`;
  const width = Math.max(...KEY_COMMANDS.map((c) => c.length));
  return `usage: ${RUN} COMMAND [options]

Makes, lists and revokes API keys, and lists the access requests, on the service's database.

commands:
${KEY_COMMANDS.map((c) => `  ${c.padEnd(width)}  ${KEY_COMMAND_TEXTS[c].brief}`).join('\n')}

${RUN} help COMMAND (or COMMAND --help) explains one of them.`;
}

/** What a mistake prints on stderr: the mistake in one line, then how the command is used. */
export function mistake(problem: string, command?: KeyCommand): string {
  if (!command) return `${problem}\n${KEYS_SYNOPSIS}`;
  return `${problem}\n${commandUsage(command)}\n(${RUN} help ${command} explains it)`;
}

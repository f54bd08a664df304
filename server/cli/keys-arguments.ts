/**
 * `npm run keys`'s command line turned into one request, or refused with a UsageError that says
 * what is wrong in one line and how the command is used. Nothing here touches the database, so
 * a mistake or a request for help costs nothing.
 */
import { PLAN_IDS, PLANS, type PlanId } from '../../shared/plans';
import { type OptionValues, readCommandLine } from './command-line';
import { isKeyCommand, KEY_COMMAND_TEXTS, KEY_OPTIONS, keysHelp, mistake } from './keys-help';
import { UsageError } from './run';

export interface NewKey {
  name: string;
  plan: PlanId;
  /** Set for a Custom key (its own, or Pro's); left to the plan otherwise. */
  monthlyQuota: number | undefined;
  ratePerMinute: number | undefined;
  /** What a Custom key took from Pro for lack of its own, in one line; null when nothing. */
  defaults: string | null;
}

export type KeysRequest =
  | { command: 'help'; text: string }
  | { command: 'create'; key: NewKey; json: boolean }
  | { command: 'list' | 'requests'; json: boolean }
  | { command: 'revoke'; id: number };

type Values = OptionValues<typeof KEY_OPTIONS>;

/** Key ids, quotas and rates are stored as PostgreSQL `integer`s: a larger number is a mistake of the command line, not the database's to refuse. */
const MAX_STORED_INTEGER = 2_147_483_647;

/** A whole number from 1 to MAX_STORED_INTEGER, or null. */
function storedInteger(value: string): number | null {
  return /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_STORED_INTEGER ? Number(value) : null;
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = storedInteger(value);
  if (number === null) throw new UsageError(mistake(`--${flag} must be a whole number from 1 to ${MAX_STORED_INTEGER} (got "${value}")`, 'create'));
  return number;
}

function isPlan(value: string | undefined): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value ?? '');
}

function newKey(values: Values): NewKey {
  const name = values.name?.trim();
  if (!name) throw new UsageError(mistake('--name is required', 'create'));
  const plan = values.plan;
  if (!isPlan(plan)) throw new UsageError(mistake(`--plan must be one of ${PLAN_IDS.join(', ')}`, 'create'));
  const quota = positiveInteger('quota', values.quota);
  const rate = positiveInteger('rate', values.rate);
  if (plan !== 'custom') {
    if (quota !== undefined || rate !== undefined) {
      throw new UsageError(mistake(`--quota and --rate go with --plan custom; ${PLANS[plan].label} has fixed limits`, 'create'));
    }
    return { name, plan, monthlyQuota: undefined, ratePerMinute: undefined, defaults: null };
  }
  // A Custom key without limits of its own starts from Pro's (the operator contract). They are
  // set here rather than left to the store, so that the line below names exactly what is stored.
  const missing: string[] = [];
  const taken: string[] = [];
  if (quota === undefined) {
    missing.push('--quota');
    taken.push(`${PLANS.pro.monthlyQuota} requests/month`);
  }
  if (rate === undefined) {
    missing.push('--rate');
    taken.push(`${PLANS.pro.ratePerMinute}/min`);
  }
  const one = missing.length === 1;
  const defaults =
    missing.length === 0
      ? null
      : `--plan custom without ${missing.join(' and ')}: took Pro's ${one ? 'limit' : 'limits'}, ${taken.join(' and ')} (give ${missing.map((m) => `${m} N`).join(' and ')} to set ${one ? 'another' : 'others'})`;
  return { name, plan, monthlyQuota: quota ?? PLANS.pro.monthlyQuota, ratePerMinute: rate ?? PLANS.pro.ratePerMinute, defaults };
}

export function readKeysRequest(args: readonly string[]): KeysRequest {
  const { values, positionals, help, problem } = readCommandLine(args, KEY_OPTIONS);
  const [first, ...rest] = positionals;
  if (first === 'help' || (help && first === undefined)) {
    if (rest.length > 1) throw new UsageError(mistake('help takes one command'));
    const [topic] = rest;
    if (topic !== undefined && !isKeyCommand(topic)) throw new UsageError(mistake(`unknown command "${topic}"`));
    return { command: 'help', text: keysHelp(topic) };
  }
  if (first === undefined) throw new UsageError(mistake(problem ?? 'no command given'));
  if (!isKeyCommand(first)) throw new UsageError(mistake(`unknown command "${first}"`));
  // Asking for help is never a mistake, whatever else the line holds.
  if (help) return { command: 'help', text: keysHelp(first) };
  if (problem) throw new UsageError(mistake(problem, first));
  const allowed: readonly string[] = KEY_COMMAND_TEXTS[first].options;
  const stray = Object.keys(values).find((name) => !allowed.includes(name));
  if (stray) throw new UsageError(mistake(`${first} takes no --${stray}`, first));

  if (first === 'revoke') {
    if (rest.length !== 1) throw new UsageError(mistake('revoke takes one key id', first));
    const id = storedInteger(rest[0] ?? '');
    if (id === null) throw new UsageError(mistake(`a key id is a whole number from 1 to ${MAX_STORED_INTEGER} (got "${rest[0]}")`, first));
    return { command: 'revoke', id };
  }
  if (rest.length > 0) throw new UsageError(mistake(`${first} takes no arguments (got "${rest.join(' ')}")`, first));
  const json = values.json === true;
  return first === 'create' ? { command: 'create', key: newKey(values), json } : { command: first, json };
}

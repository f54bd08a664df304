/**
 * Every environment variable the README lists, parsed and validated once at start. A bad value stops
 * the process with a message that names the variable, instead of failing later at random.
 */
import { isIsoDate } from '../shared/dates';
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly redisUrl: string | null;
  readonly bccrToken: string | null;
  readonly bccrApiUrl: string;
  readonly bccrSiteApiUrl: string;
  readonly haciendaUrl: string;
  /** null when the scheduled sync is disabled (`SYNC_CRON=off`). */
  readonly syncCron: string | null;
  /** The first day of the other currencies' cross rates read on an empty database (`CURRENCIES_SINCE`). */
  readonly currenciesSince: string;
  /** The first day of MONEX read on an empty database (`MONEX_SINCE`). */
  readonly monexSince: string;
  readonly corsOrigins: readonly string[];
  readonly llm: { readonly baseUrl: string; readonly apiKey: string; readonly model: string } | null;
  readonly logLevel: LogLevel;
  readonly metricsToken: string | null;
  /**
   * How many proxies in front of the service to trust (0: none). The client's address is the one
   * those proxies saw: counted from the right of X-Forwarded-For, never what a client wrote to its
   * left.
   */
  readonly trustProxy: number;
  /** Where clients reach the service, written into the documents and pages (never the request's Host). */
  readonly publicUrl: string;
  readonly webhooks: {
    /** `http://` webhook URLs too (WEBHOOK_ALLOW_HTTP). */
    readonly allowHttp: boolean;
    /** Loopback, private and link-local targets too (WEBHOOK_ALLOW_PRIVATE). */
    readonly allowPrivate: boolean;
    /** WEBHOOK_SECRET_KEY: what seals the subscriptions' secrets (store/webhook-key.ts says the default). */
    readonly secretKey: string | null;
    /**
     * WEBHOOK_LEASE_SECONDS: how long a claimed delivery stays with the process that claimed it. A
     * process killed while sending leaves it to the next one (itself after a restart) this long after.
     */
    readonly leaseSeconds: number;
  };
  /** What the privacy, terms and add-on pages tell people: the operator's contact and how to get the add-on. */
  readonly publishing: Publishing;
}

/**
 * The operator's side of the published pages: whom to write to (`CONTACT_EMAIL`; absent, the pages
 * point at the request-access form) and where the add-on is installed from (`ADDON_LISTING_URL`,
 * its Marketplace listing; `ADDON_TEMPLATE_URL`, a spreadsheet to copy). Null when unset.
 */
export interface Publishing {
  readonly contactEmail: string | null;
  readonly addonListingUrl: string | null;
  readonly addonTemplateUrl: string | null;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Every 30 minutes from 12:00 to 18:00, Monday to Friday: tomorrow's rate appears after MONEX closes. */
export const DEFAULT_SYNC_CRON = '0,30 12-18 * * 1-5';
/** The upstreams' real addresses, each overridable by its variable (tests point them at the fake). */
export const DEFAULT_UPSTREAM_URLS = {
  bccrApiUrl: 'https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.Publico.Indicadores.API',
  bccrSiteApiUrl: 'https://apim.bccr.fi.cr/SDDE/api',
  haciendaUrl: 'https://api.hacienda.go.cr',
} as const;
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function url(env: Env, name: string, fallback: string, protocols: readonly string[]): string {
  const raw = optional(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')} (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function cron(env: Env): string | null {
  const raw = optional(env, 'SYNC_CRON') ?? DEFAULT_SYNC_CRON;
  if (raw.toLowerCase() === 'off') return null;
  const fields = raw.split(/\s+/);
  if (fields.length < 5 || fields.length > 6 || !fields.every((f) => /^[\d*,/\-A-Za-z?LW#]+$/.test(f))) {
    throw new ConfigError('SYNC_CRON', `must be a cron expression of 5 or 6 fields, or "off" (got "${raw}")`);
  }
  return raw;
}

/** `TRUST_PROXY`: false or 0 (none), true (one proxy), or the number of proxies in front. */
function proxyHops(env: Env): number {
  const raw = (optional(env, 'TRUST_PROXY') ?? 'false').toLowerCase();
  if (raw === 'false') return 0;
  if (raw === 'true') return 1;
  if (!/^\d{1,2}$/.test(raw)) throw new ConfigError('TRUST_PROXY', `must be true, false or the number of proxies in front of the service (got "${raw}")`);
  return Number(raw);
}

/** Cross rates since 2000 by default: some 27 years of 42 series, read once and then kept up to date. */
export const DEFAULT_CURRENCIES_SINCE = '2000-01-01';

function currenciesSince(env: Env): string {
  const raw = optional(env, 'CURRENCIES_SINCE') ?? DEFAULT_CURRENCIES_SINCE;
  if (!isIsoDate(raw) || raw < '1983-01-01') throw new ConfigError('CURRENCIES_SINCE', `must be a date as YYYY-MM-DD, not before 1983-01-01 (got "${raw}")`);
  return raw;
}

function flag(env: Env, name: string): boolean {
  const raw = (optional(env, name) ?? 'false').toLowerCase();
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(name, `must be true or false (got "${raw}")`);
  return raw === 'true';
}

function secretKey(env: Env): string | null {
  const raw = optional(env, 'WEBHOOK_SECRET_KEY');
  if (raw !== null && raw.length < 32) throw new ConfigError('WEBHOOK_SECRET_KEY', 'must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  return raw;
}

/** Longer than an attempt (10 s) and the writing of its outcome, so that no delivery is sent twice at once. */
export const MIN_WEBHOOK_LEASE_SECONDS = 12;
export const DEFAULT_WEBHOOK_LEASE_SECONDS = 60;

function leaseSeconds(env: Env): number {
  const raw = optional(env, 'WEBHOOK_LEASE_SECONDS') ?? String(DEFAULT_WEBHOOK_LEASE_SECONDS);
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < MIN_WEBHOOK_LEASE_SECONDS || Number(raw) > 3600)
    throw new ConfigError('WEBHOOK_LEASE_SECONDS', `must be a whole number of seconds from ${MIN_WEBHOOK_LEASE_SECONDS} to 3600 (got "${raw}")`);
  return Number(raw);
}

function email(env: Env, name: string): string | null {
  const raw = optional(env, name);
  // One address, no display name: it is written into pages as a mailto: link.
  if (raw !== null && !/^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$/.test(raw)) throw new ConfigError(name, `must be one email address (got "${raw}")`);
  return raw;
}

function optionalHttps(env: Env, name: string): string | null {
  return optional(env, name) === null ? null : url(env, name, '', ['https:']);
}

/** MONEX began in 2006: its whole history by default, some 5,000 days in 20 one-year runs. */
export const DEFAULT_MONEX_SINCE = '2006-01-01';

function monexSince(env: Env): string {
  const raw = optional(env, 'MONEX_SINCE') ?? DEFAULT_MONEX_SINCE;
  if (!isIsoDate(raw) || raw < DEFAULT_MONEX_SINCE)
    throw new ConfigError('MONEX_SINCE', `must be a date as YYYY-MM-DD, not before ${DEFAULT_MONEX_SINCE} (got "${raw}")`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const portRaw = optional(env, 'PORT') ?? '3000';
  if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65535) {
    throw new ConfigError('PORT', `must be a port number from 0 to 65535 (got "${portRaw}")`);
  }
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl) url(env, 'DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']);
  const redisUrl = optional(env, 'REDIS_URL');
  if (redisUrl) url(env, 'REDIS_URL', redisUrl, ['redis:', 'rediss:']);

  const llmVars = ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL'].map((name) => optional(env, name));
  const llmSet = llmVars.filter((v) => v !== null).length;
  if (llmSet > 0 && llmSet < 3) {
    throw new ConfigError('LLM_BASE_URL, LLM_API_KEY and LLM_MODEL', 'must be set together, or none of them');
  }
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const corsOrigins = (optional(env, 'CORS_ORIGINS') ?? '*')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError('CORS_ORIGINS', `must be "*" or comma-separated origins like https://example.com (got "${origin}")`);
    }
  }

  return Object.freeze({
    port: Number(portRaw),
    databaseUrl,
    dataDir: path.resolve(optional(env, 'DATA_DIR') ?? './data'),
    redisUrl,
    bccrToken: optional(env, 'BCCR_TOKEN'),
    bccrApiUrl: url(env, 'BCCR_API_URL', DEFAULT_UPSTREAM_URLS.bccrApiUrl, ['http:', 'https:']),
    bccrSiteApiUrl: url(env, 'BCCR_SITE_API_URL', DEFAULT_UPSTREAM_URLS.bccrSiteApiUrl, ['http:', 'https:']),
    haciendaUrl: url(env, 'HACIENDA_URL', DEFAULT_UPSTREAM_URLS.haciendaUrl, ['http:', 'https:']),
    syncCron: cron(env),
    currenciesSince: currenciesSince(env),
    monexSince: monexSince(env),
    corsOrigins: Object.freeze(corsOrigins),
    llm:
      llmSet === 3
        ? Object.freeze({
            baseUrl: url(env, 'LLM_BASE_URL', '', ['http:', 'https:']),
            apiKey: llmVars[1] as string,
            model: llmVars[2] as string,
          })
        : null,
    logLevel,
    metricsToken: optional(env, 'METRICS_TOKEN'),
    trustProxy: proxyHops(env),
    publicUrl: url(env, 'PUBLIC_URL', `http://localhost:${portRaw === '0' ? 3000 : portRaw}`, ['http:', 'https:']),
    publishing: Object.freeze({
      contactEmail: email(env, 'CONTACT_EMAIL'),
      addonListingUrl: optionalHttps(env, 'ADDON_LISTING_URL'),
      addonTemplateUrl: optionalHttps(env, 'ADDON_TEMPLATE_URL'),
    }),
    webhooks: Object.freeze({
      allowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP'),
      allowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
      secretKey: secretKey(env),
      leaseSeconds: leaseSeconds(env),
    }),
  });
}

/**
 * API keys. A key is shown once, when it is made; only its SHA-256 hash is stored, so a copy of
 * the database does not give anyone a working key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { PLANS, type PlanId } from '../../shared/plans';

export const KEY_PREFIX = 'crc_live_';
/** 32 random bytes in base64url: 43 characters. */
const KEY_PATTERN = /^crc_live_[A-Za-z0-9_-]{43}$/;
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export interface ApiKey {
  id: number;
  name: string;
  plan: PlanId;
  keyPrefix: string;
  monthlyQuota: number;
  ratePerMinute: number;
  createdAt: string;
  revokedAt: string | null;
}

interface ApiKeyRow {
  id: number;
  name: string;
  plan: PlanId;
  key_hash: string;
  key_prefix: string;
  monthly_quota: number;
  rate_per_minute: number;
  created_at: Date;
  revoked_at: Date | null;
}

export type KeyLookup = { status: 'ok'; key: ApiKey } | { status: 'malformed' | 'unknown' | 'revoked' };

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * A failed query must not carry a key's hash into a log or onto a terminal: PGlite attaches the
 * query's parameters to its errors (`params`), which the logger writes out with the error, and
 * knex may write bindings into the message. So the error is thrown again as a copy of itself down
 * its whole `cause` chain, each link keeping only its name, its code and its message with the hash
 * masked: whatever else a driver attached is left behind, while isDatabaseUnreachable() still reads
 * the same names, codes and messages (a database that is down is answered 503, not 500).
 */
function withoutHash(error: unknown, hash: string): Error {
  const mask = (text: string) => text.split(hash).join('[key hash]');
  const copy = (e: unknown, depth: number): Error => {
    // Read by shape, not `instanceof Error`: Node's socket errors come from another realm under jest.
    if (typeof e !== 'object' || e === null || !('message' in e)) return new Error(mask(String(e)));
    const { name, message, code, cause, errors } = e as { name?: unknown; message: unknown; code?: unknown; cause?: unknown; errors?: unknown };
    // A chain is a few links long; the bound only guards against a cycle.
    const options = cause !== undefined && depth < 8 ? { cause: copy(cause, depth + 1) } : undefined;
    const text = mask(String(message));
    const masked = Array.isArray(errors)
      ? new AggregateError(
          errors.map((inner: unknown) => copy(inner, depth + 1)),
          text,
          options,
        )
      : new Error(text, options);
    if (typeof name === 'string') masked.name = name;
    if (typeof code === 'string') Object.assign(masked, { code });
    return masked;
  };
  return copy(error, 0);
}

const toKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  keyPrefix: r.key_prefix,
  monthlyQuota: r.monthly_quota,
  ratePerMinute: r.rate_per_minute,
  createdAt: r.created_at.toISOString(),
  revokedAt: r.revoked_at?.toISOString() ?? null,
});

export function createApiKeysStore(db: Knex) {
  const table = () => db<ApiKeyRow>('api_keys');
  return {
    async create(input: { name: string; plan: PlanId; monthlyQuota?: number; ratePerMinute?: number }): Promise<{ key: string; record: ApiKey }> {
      const key = KEY_PREFIX + randomBytes(32).toString('base64url');
      const plan = PLANS[input.plan];
      const hash = hashKey(key);
      const [row] = await table()
        .insert({
          name: input.name,
          plan: input.plan,
          key_hash: hash,
          key_prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
          monthly_quota: input.monthlyQuota ?? plan.monthlyQuota,
          rate_per_minute: input.ratePerMinute ?? plan.ratePerMinute,
        })
        .returning('*')
        .catch((error: unknown) => {
          throw withoutHash(error, hash);
        });
      return { key, record: toKey(row as ApiKeyRow) };
    },

    async lookup(key: string): Promise<KeyLookup> {
      if (!isWellFormedKey(key)) return { status: 'malformed' };
      const hash = hashKey(key);
      const row = await table()
        .where({ key_hash: hash })
        .first()
        .catch((error: unknown) => {
          throw withoutHash(error, hash);
        });
      // The index finds the row; the comparison itself does not leak how much of the hash matched.
      if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return { status: 'unknown' };
      if (row.revoked_at) return { status: 'revoked' };
      return { status: 'ok', key: toKey(row) };
    },

    async list(): Promise<ApiKey[]> {
      return (await table().orderBy('id')).map(toKey);
    },

    async revoke(id: number, at: Date): Promise<boolean> {
      const changed = await table().where({ id }).whereNull('revoked_at').update({ revoked_at: at });
      return changed > 0;
    },
  };
}

export type ApiKeysStore = ReturnType<typeof createApiKeysStore>;

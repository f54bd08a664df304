/**
 * `npm run keys -- create|list|revoke|requests` (see the README). A new key is
 * printed once and never again: only its hash is stored.
 */
import { parseArgs } from 'node:util';
import { PLAN_IDS, PLANS, type PlanId } from '../../shared/plans';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { openRuntime } from '../runtime';
import { createAccessRequestsStore } from '../store/access-requests';
import { createApiKeysStore } from '../store/api-keys';
import { createUsageStore, quotaMonth } from '../store/usage';
import { runCli, UsageError } from './run';

const USAGE = `usage:
  npm run keys -- create --name NAME --plan ${PLAN_IDS.join('|')} [--quota N] [--rate N] [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke ID
  npm run keys -- requests [--json]`;

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} must be a positive integer (got "${value}")\n${USAGE}`);
  }
  return Number(value);
}

function table(rows: ReadonlyArray<Record<string, string | number | null>>): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0] ?? {});
  const cell = (v: string | number | null) => (v === null ? '-' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? null).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c] ?? null))))].join('\n');
}

runCli(async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      quota: { type: 'string' },
      rate: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (!command || !['create', 'list', 'revoke', 'requests'].includes(command)) throw new UsageError(USAGE);

  let plan: PlanId | undefined;
  let quota: number | undefined;
  let rate: number | undefined;
  if (command === 'create') {
    if (!values.name?.trim()) throw new UsageError(`--name is required\n${USAGE}`);
    if (!values.plan || !PLAN_IDS.includes(values.plan as PlanId)) throw new UsageError(`--plan must be one of ${PLAN_IDS.join(', ')}\n${USAGE}`);
    plan = values.plan as PlanId;
    quota = positiveInteger('quota', values.quota);
    rate = positiveInteger('rate', values.rate);
    if (plan !== 'custom' && (quota !== undefined || rate !== undefined)) {
      throw new UsageError(`--quota and --rate go with --plan custom; ${PLANS[plan].label} has fixed limits\n${USAGE}`);
    }
  }
  if (command === 'revoke' && (rest.length !== 1 || !/^\d+$/.test(rest[0] ?? ''))) throw new UsageError(`revoke takes one key id\n${USAGE}`);

  const config = loadConfig();
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  const out = (text: string) => process.stdout.write(`${text}\n`);
  try {
    const keys = createApiKeysStore(runtime.db);
    switch (command) {
      case 'create': {
        const { key, record } = await keys.create({ name: (values.name ?? '').trim(), plan: plan as PlanId, monthlyQuota: quota, ratePerMinute: rate });
        const created = { id: record.id, name: record.name, plan: record.plan, key, monthlyQuota: record.monthlyQuota, ratePerMinute: record.ratePerMinute };
        if (values.json) out(JSON.stringify(created));
        else
          out(
            `Created key ${record.id} "${record.name}" (${record.plan}: ${record.monthlyQuota} requests/month, ${record.ratePerMinute}/min).\n\n  ${key}\n\nThis is the only time the key is shown: store it now.`,
          );
        return 0;
      }
      case 'list': {
        const usage = await createUsageStore(runtime.db).usedByKey(quotaMonth(new Date()).month);
        const list = (await keys.list()).map((k) => ({
          id: k.id,
          name: k.name,
          plan: k.plan,
          prefix: k.keyPrefix,
          monthlyQuota: k.monthlyQuota,
          ratePerMinute: k.ratePerMinute,
          usedThisMonth: usage.get(k.id) ?? 0,
          createdAt: k.createdAt,
          revokedAt: k.revokedAt,
        }));
        out(values.json ? JSON.stringify(list) : table(list));
        return 0;
      }
      case 'revoke': {
        const id = Number(rest[0]);
        const done = await keys.revoke(id, new Date());
        // Running instances keep recent lookups in memory: tell them (through Redis or PostgreSQL).
        if (done) await runtime.changes.keysChanged();
        out(done ? `Revoked key ${id}.` : `No active key with id ${id}.`);
        return done ? 0 : 1;
      }
      default: {
        const requests = await createAccessRequestsStore(runtime.db).list();
        out(values.json ? JSON.stringify(requests) : table(requests.map((r) => ({ ...r }))));
        return 0;
      }
    }
  } finally {
    await runtime.close();
  }
});

/**
 * `npm run keys -- create|list|revoke|requests` (see the README; `help` or `--help` explains
 * each). A new key is printed once and never again: only its hash is stored.
 */
import { loadConfig } from '../config';
import { visibleControls } from '../domain/plain-text';
import { createLogger } from '../logger';
import { openRuntime } from '../runtime';
import { createAccessRequestsStore } from '../store/access-requests';
import { createApiKeysStore } from '../store/api-keys';
import { createUsageStore, quotaMonth } from '../store/usage';
import { readKeysRequest } from './keys-arguments';
import { runCli } from './run';

/**
 * Rows as aligned text for a terminal. Stored text (a name or message sent through the site's
 * form) is printed with its control characters made visible: it must not clear the operator's
 * screen, retitle the window, or forge a row with a line break.
 */
function table(rows: ReadonlyArray<Record<string, string | number | null>>): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0] ?? {});
  const cell = (v: string | number | null) => (v === null ? '-' : visibleControls(String(v)));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? null).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c] ?? null))))].join('\n');
}

runCli(async () => {
  const request = readKeysRequest(process.argv.slice(2));
  if (request.command === 'help') {
    process.stdout.write(`${request.text}\n`);
    return 0;
  }

  const config = loadConfig();
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  const out = (text: string) => process.stdout.write(`${text}\n`);
  try {
    const keys = createApiKeysStore(runtime.db);
    switch (request.command) {
      case 'create': {
        const { name, plan, monthlyQuota, ratePerMinute, defaults } = request.key;
        const { key, record } = await keys.create({ name, plan, monthlyQuota, ratePerMinute });
        // On stderr, so that --json still prints one JSON document and nothing else.
        if (defaults) process.stderr.write(`${defaults}\n`);
        const created = { id: record.id, name: record.name, plan: record.plan, key, monthlyQuota: record.monthlyQuota, ratePerMinute: record.ratePerMinute };
        if (request.json) out(JSON.stringify(created));
        else
          out(
            `Created key ${record.id} "${visibleControls(record.name)}" (${record.plan}: ${record.monthlyQuota} requests/month, ${record.ratePerMinute}/min).\n\n  ${key}\n\nThis is the only time the key is shown: store it now.`,
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
        out(request.json ? JSON.stringify(list) : table(list));
        return 0;
      }
      case 'revoke': {
        const { id } = request;
        const done = await keys.revoke(id, new Date());
        // Running instances keep recent lookups in memory: tell them (PostgreSQL's NOTIFY, and Redis
        // when REDIS_URL is set; or the embedded server's socket).
        if (done) await runtime.changes.keysChanged();
        out(done ? `Revoked key ${id}.` : `No active key with id ${id}.`);
        return done ? 0 : 1;
      }
      case 'requests': {
        const requests = await createAccessRequestsStore(runtime.db).list();
        out(request.json ? JSON.stringify(requests) : table(requests.map((r) => ({ ...r }))));
        return 0;
      }
    }
  } finally {
    await runtime.close();
  }
});

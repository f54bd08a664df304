/**
 * `npm run webhooks -- list [--json] | remove ID`: the operator's view of every key's webhook
 * subscriptions. Stored text (a URL a client sent) is printed with its control characters made
 * visible, as `npm run keys` prints names. Exit codes: 0 done, 1 no such subscription (or the
 * database refused), 2 a mistake in the command line.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { visibleControls } from '../domain/plain-text';
import { createLogger } from '../logger';
import { openRuntime } from '../runtime';
import { createWebhooksStore } from '../store/webhooks';
import { runCli, UsageError } from './run';

const HELP = `Usage:
  npm run webhooks -- list [--json]   every subscription: id, key, url, events, currency, state
  npm run webhooks -- remove ID       deletes a subscription and its deliveries`;

runCli(async () => {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { json: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const [command, id, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (command !== 'list' && command !== 'remove') throw new UsageError(`Unknown command ${JSON.stringify(command ?? '')}\n${HELP}`);
  if (command === 'remove' && (!id || rest.length > 0)) throw new UsageError(`remove takes one subscription id\n${HELP}`);
  if (command === 'list' && id) throw new UsageError(`list takes no argument\n${HELP}`);

  const config = loadConfig();
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  const out = (text: string) => process.stdout.write(`${text}\n`);
  try {
    const store = createWebhooksStore(runtime.db);
    if (command === 'list') {
      const list = await store.listAll();
      if (values.json) out(JSON.stringify(list));
      else if (list.length === 0) out('(none)');
      else
        for (const s of list) {
          const state = s.disabled ? `disabled since ${s.disabledAt}` : `active (${s.consecutiveFailures} failed in a row)`;
          out(`${s.id}  key ${s.keyId}  ${visibleControls(s.url)}  ${s.events.join(',')}  ${s.currency}  ${state}  created ${s.createdAt}`);
        }
      return 0;
    }
    const done = await store.remove(String(id), null);
    out(done ? `Removed webhook subscription ${visibleControls(String(id))}.` : `No webhook subscription with id ${visibleControls(String(id))}.`);
    return done ? 0 : 1;
  } finally {
    await runtime.close();
  }
});

/**
 * Migrations as TypeScript modules listed in order, so the same code migrates PostgreSQL and the
 * embedded database from `npm start`, the CLI and the tests, with no files looked up at run time.
 */
import type { Knex } from 'knex';
import * as exchangeRates from './001_exchange_rates';
import * as syncRuns from './002_sync_runs';
import * as access from './003_access';
import * as banking from './004_banking';
import * as insights from './005_insights';
import * as quotaLeases from './006_quota_leases';
import * as rateMonths from './007_rate_months';
import * as rateProvenance from './008_rate_provenance';
import * as plainInstitutionNames from './009_plain_institution_names';
import * as servedCounts from './010_served_counts';
import * as crossRates from './011_cross_rates';
import * as monex from './012_monex';
import * as webhooks from './013_webhooks';
import * as provisionalRates from './014_provisional_rates';
import * as dropRateMonths from './015_drop_rate_months';

interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

const migrations: Migration[] = [
  { name: '001_exchange_rates', ...exchangeRates },
  { name: '002_sync_runs', ...syncRuns },
  { name: '003_access', ...access },
  { name: '004_banking', ...banking },
  { name: '005_insights', ...insights },
  { name: '006_quota_leases', ...quotaLeases },
  { name: '007_rate_months', ...rateMonths },
  { name: '008_rate_provenance', ...rateProvenance },
  { name: '009_plain_institution_names', ...plainInstitutionNames },
  { name: '010_served_counts', ...servedCounts },
  { name: '011_cross_rates', ...crossRates },
  { name: '012_monex', ...monex },
  { name: '013_webhooks', ...webhooks },
  { name: '014_provisional_rates', ...provisionalRates },
  { name: '015_drop_rate_months', ...dropRateMonths },
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

export async function migrate(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

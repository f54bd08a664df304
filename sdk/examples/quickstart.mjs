/**
 * A first call in plain JavaScript, runnable as is once the package is installed:
 *
 *   CRC_RATES_API_KEY=crc_live_… CRC_RATES_URL=http://localhost:3000 node quickstart.mjs
 *
 * Without CRC_RATES_URL it asks the public service. test/sdk/install.test.ts runs this file in a
 * project where the package was installed with npm, against a real server.
 */
import { ExchangeRateClient, ExchangeRateError } from '@crc-rates/sdk';

const client = new ExchangeRateClient({
  apiKey: process.env.CRC_RATES_API_KEY ?? '',
  // A bare origin is enough: /api/v1 is added.
  baseUrl: process.env.CRC_RATES_URL || undefined,
  // When the server asks to wait longer than 5 s before a retry, fail at once instead.
  maxRetryWaitMs: 5_000,
});

try {
  // The whole call, retries included, may take 15 s at most.
  const latest = await client.getLatest({ signal: AbortSignal.timeout(15_000) });
  console.log(`${latest.date}: buy ₡${latest.buy}, sell ₡${latest.sell}`);
  const { result } = await client.convert({ amount: 100, from: 'USD', to: 'CRC' });
  console.log(`USD 100 = ₡${result}`);
} catch (error) {
  process.exitCode = 1;
  if (error instanceof ExchangeRateError) console.error(`${error.code}: ${error.message}`);
  else if (error instanceof Error && error.name === 'TimeoutError') console.error('No answer within 15 s');
  else throw error;
}

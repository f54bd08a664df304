/**
 * A day without a rate is a 404 that says why: the day is before the series, after its latest
 * date (published the afternoon before, or the sync is behind), or a gap in it. `/convert` with a
 * `date` says the same.
 */
import { rate, startTestApp, type TestApp } from '../../helpers/app';

let now = new Date('2025-01-16T05:30:00Z');
let t: TestApp;
beforeAll(async () => {
  // "Today" is 2025-01-15 in Costa Rica (23:30), already 2025-01-16 in UTC.
  t = await startTestApp({ clock: () => now });
  await t.seed([
    rate('2025-01-01', 503.1, 509.2),
    rate('2025-01-02', 503.2, 509.3),
    // 2025-01-03 is missing.
    rate('2025-01-04', 503.4, 509.5),
    rate('2025-01-15', 506.47, 512.82),
    // Published the afternoon before.
    rate('2025-01-16', 507, 513),
  ]);
});
afterAll(() => t.close());

const notFound = (message: string) => ({ success: false, error: 'NOT_FOUND', message });

async function expectBoth(date: string, message: string): Promise<void> {
  for (const path of [`/exchange-rate?date=${date}`, `/convert?amount=100&date=${date}`]) {
    const { status, body } = await t.get(path);
    expect([path, status, body]).toEqual([path, 404, notFound(message)]);
  }
}

it('before the first day: where the series starts', async () => {
  await expectBoth('2024-12-31', 'No exchange rate for 2024-12-31: the series starts on 2025-01-01');
  await expectBoth('1982-06-30', 'No exchange rate for 1982-06-30: the series starts on 2025-01-01');
});

it('a gap: the series runs on both sides of it', async () => {
  await expectBoth('2025-01-03', 'No exchange rate for 2025-01-03: the series has a gap there (it runs from 2025-01-01 to 2025-01-16)');
  await expectBoth('2025-01-10', 'No exchange rate for 2025-01-10: the series has a gap there (it runs from 2025-01-01 to 2025-01-16)');
});

it('after the latest date, in the future: when rates are published', async () => {
  const published = "the central bank publishes each day's rate the afternoon before";
  await expectBoth('2025-01-17', `No exchange rate for 2025-01-17 yet: the latest official rate is for 2025-01-16; ${published}`);
  await expectBoth('2030-01-01', `No exchange rate for 2030-01-01 yet: the latest official rate is for 2025-01-16; ${published}`);
});

it('after the latest date, up to today: the sync is behind, see health', async () => {
  // Five days later, nothing new stored.
  now = new Date('2025-01-21T05:30:00Z');
  await expectBoth('2025-01-17', 'No exchange rate for 2025-01-17 yet: the latest official rate stored is for 2025-01-16; see /api/v1/health');
  await expectBoth('2025-01-20', 'No exchange rate for 2025-01-20 yet: the latest official rate stored is for 2025-01-16; see /api/v1/health');
  expect((await t.get('/exchange-rate?date=2025-01-16')).status).toBe(200);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { createLogger, isoTimeField, logDestination } from '../../server/logger';

/** What pino's own isoTime writes at `ms`. */
function pinosField(ms: number): string {
  const realNow = Date.now;
  Date.now = () => ms;
  try {
    return pino.stdTimeFunctions.isoTime();
  } finally {
    Date.now = realNow;
  }
}

describe('isoTimeField', () => {
  it('writes what pino.stdTimeFunctions.isoTime writes, at any instant (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => {
        expect(isoTimeField(() => ms)()).toBe(pinosField(ms));
      }),
    );
  });

  it('stays right over a sequence of instants: within a second, across seconds, and back in time', () => {
    const instants = [
      Date.UTC(2026, 0, 15, 18, 5, 12, 0),
      Date.UTC(2026, 0, 15, 18, 5, 12, 7),
      Date.UTC(2026, 0, 15, 18, 5, 12, 999),
      Date.UTC(2026, 0, 15, 18, 5, 13, 0),
      Date.UTC(2026, 0, 15, 18, 5, 12, 500),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 1),
    ];
    let i = 0;
    const field = isoTimeField(() => instants[i] as number);
    for (i = 0; i < instants.length; i++) expect(field()).toBe(pinosField(instants[i] as number));
  });
});

describe('logDestination', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-log-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gathers lines into batches, and writes a lone line within a fraction of a second anyway', async () => {
    const file = path.join(dir, 'log');
    const destination = logDestination(file);
    // The file itself is opened asynchronously too: it may not be there yet.
    const written = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
    const logger = createLogger('info', destination);
    logger.info({ status: 200 }, 'request');
    // Not written by the call itself: it waits for more lines, or for the timer.
    expect(written()).toBe('');
    const started = Date.now();
    while (!written().includes('"msg":"request"')) {
      expect(Date.now() - started).toBeLessThan(2000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    destination.end();
  });

  it('writes as soon as a batch is full', async () => {
    const file = path.join(dir, 'log');
    const destination = logDestination(file);
    const logger = createLogger('info', destination);
    const written = new Promise<number>((resolve) => destination.once('write', resolve));
    for (let i = 0; i < 100; i++) logger.info({ i, path: '/api/v1/exchange-rate/latest' }, 'request');
    expect(await written).toBeGreaterThanOrEqual(4096);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^\{"level":30,.*"i":0,/);
    destination.end();
  });
});

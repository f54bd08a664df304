/**
 * The pure parts of webhooks on small inline cases: which addresses are refused (IPv4, IPv6 and
 * IPv4 inside IPv6), the Standard Webhooks signature against a value computed here with
 * node:crypto, sealing round trips and refuses another key, the backoff schedule, and threshold
 * crossings.
 */
import { createHmac } from 'node:crypto';
import { refusedAddress } from '../../../server/domain/webhooks/address';
import { MAX_ATTEMPTS, nextAttemptAt } from '../../../server/domain/webhooks/backoff';
import { seal, sealKeyOf, unseal } from '../../../server/domain/webhooks/seal';
import { newSecret, sign } from '../../../server/domain/webhooks/signature';
import { crossed, stateOf } from '../../../server/domain/webhooks/threshold';

it.each([
  '127.0.0.1',
  '10.1.2.3',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '::1',
  '::',
  'fe80::1',
  'fd00::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '64:ff9b::a9fe:a9fe',
])('refuses %s', (address) => {
  expect(refusedAddress(address)).toMatch(/private|reserved/);
});

it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
  expect(refusedAddress(address)).toBeNull();
});

it('signs "{id}.{timestamp}.{body}" with the bytes of the secret', () => {
  const secret = newSecret();
  expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
    .update('msg_1.1700000000.{"a":1}')
    .digest('base64');
  expect(sign(secret, 'msg_1', 1_700_000_000, '{"a":1}')).toBe(`v1,${expected}`);
});

it('seals and unseals; another key cannot read it', () => {
  const key = sealKeyOf('k'.repeat(32));
  const sealed = seal(key, 'whsec_abc');
  expect(sealed).not.toContain('whsec');
  expect(unseal(key, sealed)).toBe('whsec_abc');
  expect(() => unseal(sealKeyOf('x'.repeat(32)), sealed)).toThrow();
});

it('retries after about 1 min, 5 min, 30 min, 2 h, 8 h and 24 h, within ±10 %, then gives up', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const minutes = (attempts: number, random: number) => ((nextAttemptAt(attempts, now, () => random)?.getTime() ?? Number.NaN) - now.getTime()) / 60_000;
  expect([1, 2, 3, 4, 5, 6].map((n) => minutes(n, 0.5))).toEqual([1, 5, 30, 120, 480, 1440]);
  expect(minutes(1, 0)).toBeCloseTo(0.9);
  expect(minutes(6, 1)).toBeCloseTo(1584);
  expect(nextAttemptAt(MAX_ATTEMPTS, now)).toBeNull();
});

it('a threshold fires on crossing only, and re-arms on the way back', () => {
  const t = { side: 'sell' as const, above: 505, below: 490 };
  expect([510, 505, 480, 495].map((v) => stateOf(t, v))).toEqual(['above', 'inside', 'below', 'inside']);
  expect(crossed('inside', 'above')).toBe('above');
  expect(crossed('above', 'above')).toBeNull();
  expect(crossed('above', 'inside')).toBeNull();
  expect(crossed('above', 'below')).toBe('below');
  expect(crossed(null, 'above')).toBeNull();
});

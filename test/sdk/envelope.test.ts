/**
 * shared/envelope.ts and shared/retry-after.ts: how every client (the SDK and the Sheets add-on)
 * reads an answer of the API. The envelope must read as the server's own schema describes it.
 */
import { readEnvelope } from '../../shared/envelope';
import { ERROR_CODES, ERROR_STATUS } from '../../shared/errors';
import { retryAfterSeconds } from '../../shared/retry-after';
import { ErrorEnvelopeSchema } from '../../shared/schemas';

describe('readEnvelope', () => {
  it('gives the data of a success, also when the data is null or falsy', () => {
    expect(readEnvelope(200, JSON.stringify({ success: true, data: [1, 2] }))).toEqual({ kind: 'data', data: [1, 2] });
    expect(readEnvelope(200, '{"success":true,"data":null}')).toEqual({ kind: 'data', data: null });
    expect(readEnvelope(204, '{"success":true,"data":0}')).toEqual({ kind: 'data', data: 0 });
  });

  it.each(ERROR_CODES)('reads every error the server schema allows: %s', (code) => {
    const envelope = { success: false, message: `a ${code}`, error: code };
    expect(ErrorEnvelopeSchema.parse(envelope)).toEqual(envelope);
    expect(readEnvelope(ERROR_STATUS[code], JSON.stringify(envelope))).toEqual({ kind: 'error', error: code, message: `a ${code}` });
  });

  it('keeps the message of a code it does not know, and says when there is none', () => {
    expect(readEnvelope(402, '{"success":false,"error":"PAYMENT_REQUIRED","message":"Pay"}')).toEqual({ kind: 'error', error: null, message: 'Pay' });
    expect(readEnvelope(400, '{"success":false,"error":"BAD_REQUEST"}')).toEqual({ kind: 'error', error: 'BAD_REQUEST', message: null });
  });

  it.each([
    ['an HTML page', 502, '<html>Bad gateway</html>'],
    ['an empty body', 301, ''],
    ['a captive portal on 200', 200, '<html>login</html>'],
    ['JSON that is not an object', 200, '[1, 2]'],
    ['a success without data', 200, '{"success":true}'],
    ['a failure with a success status', 200, '{"success":false,"error":"BAD_REQUEST","message":"x"}'],
    ['a success with an error status', 500, '{"success":true,"data":1}'],
    ['an object without success', 404, '{"message":"Not Found"}'],
  ])('calls %s foreign', (_what, status, body) => {
    expect(readEnvelope(status, body)).toEqual({ kind: 'foreign' });
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2025-01-16T18:00:00Z');

  it('reads delta-seconds, which the API sends', () => {
    expect(retryAfterSeconds('17', now)).toBe(17);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, which a proxy may send, as whole seconds from now (never negative)', () => {
    expect(retryAfterSeconds('Thu, 16 Jan 2025 18:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Thu, 16 Jan 2025 18:00:00 GMT', now + 500)).toBe(0);
    expect(retryAfterSeconds('Thu, 16 Jan 2025 18:00:01 GMT', now + 200)).toBe(1);
  });

  it.each([null, undefined, '', '   ', '-5', '1.5', '12abc', 'soon'])('is null for %p', (value) => {
    expect(retryAfterSeconds(value, now)).toBeNull();
  });
});

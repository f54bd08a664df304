/** The health route's database probe: shared by concurrent callers, kept a second, never kept when it failed. */
import { sharedFor } from '../../../server/http/routes/health';

describe('sharedFor', () => {
  it('asks once for every call within the period, concurrent or not, then again', async () => {
    let now = 0;
    let asked = 0;
    const probe = sharedFor(
      1000,
      async () => {
        asked += 1;
        return asked;
      },
      () => now,
    );
    expect(await Promise.all([probe(), probe(), probe()])).toEqual([1, 1, 1]);
    now = 999;
    expect(await probe()).toBe(1);
    now = 1000;
    expect(await probe()).toBe(2);
    expect(asked).toBe(2);
  });

  it('does not keep a failure: the next call asks again', async () => {
    let fail = true;
    let asked = 0;
    const probe = sharedFor(
      1000,
      async () => {
        asked += 1;
        if (fail) throw new Error('database unreachable');
        return 'up';
      },
      () => 0,
    );
    await expect(Promise.all([probe(), probe()])).rejects.toThrow('database unreachable');
    expect(asked).toBe(1);
    fail = false;
    expect(await probe()).toBe('up');
    expect(asked).toBe(2);
  });
});

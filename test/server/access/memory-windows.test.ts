/**
 * The in-process rate-limit windows: a window opens at a client's first request, lets exactly
 * `max` through, refuses the rest without counting them, and opens anew once it has ended.
 */
import { MemoryWindows } from '../../../server/http/memory-windows';

describe('MemoryWindows', () => {
  let now: number;
  let windows: MemoryWindows;
  beforeEach(() => {
    now = 1_700_000_000_000;
    windows = new MemoryWindows(60_000, () => now);
  });

  it('lets exactly max through per window, counting down what remains', () => {
    const decisions = Array.from({ length: 5 }, () => windows.take('key:1', 3));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(new Set(decisions.map((d) => d.resetsAt))).toEqual(new Set([1_700_000_060_000]));
  });

  it('opens the window at the first request and a new one once it has ended', () => {
    windows.take('key:1', 1);
    now += 30_000;
    expect(windows.take('key:1', 1)).toEqual({ allowed: false, remaining: 0, resetsAt: 1_700_000_060_000 });
    now += 30_000; // the last millisecond of the window
    expect(windows.take('key:1', 1).allowed).toBe(false);
    now += 1;
    expect(windows.take('key:1', 1)).toEqual({ allowed: true, remaining: 0, resetsAt: now + 60_000 });
  });

  it('counts each client on its own', () => {
    expect(windows.take('key:1', 1).allowed).toBe(true);
    expect(windows.take('key:1', 1).allowed).toBe(false);
    expect(windows.take('ip:203.0.113.7', 1).allowed).toBe(true);
  });

  it('sweeps ended windows only', () => {
    windows.take('early', 1);
    now += 45_000;
    windows.take('late', 1);
    now += 20_000;
    expect(windows.size).toBe(2);
    windows.sweep();
    expect(windows.size).toBe(1);
    // The one kept is the late window, still used up.
    expect(windows.take('late', 1).allowed).toBe(false);
    expect(windows.size).toBe(1);
  });
});

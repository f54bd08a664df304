/**
 * The serving processes' heap growth bound (server/heap.ts) takes effect when set at run time, and
 * holds a heap full of dead answers well under what V8 lets it reach by itself; the collection
 * before listening gives back what a start left unreachable outside the heap.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { promisify } from 'node:util';
import { collectStartGarbage } from '../../server/heap';

const ROOT = path.resolve(__dirname, '../..');
const CHURN = path.join(ROOT, 'test/helpers/heap-churn.ts');

async function largestHeap(mode: 'bounded' | 'default'): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHURN, mode], { cwd: ROOT });
  return Number(stdout);
}

describe('boundHeapGrowth', () => {
  it('keeps a heap that fills with dead answers smaller than V8 left to itself does', async () => {
    const [bounded, unbounded] = await Promise.all([largestHeap('bounded'), largestHeap('default')]);
    // About 120 MB against 170 on the machines this was measured on; the live data is some 60 MB.
    expect(bounded).toBeGreaterThan(0);
    expect(bounded).toBeLessThan(0.85 * unbounded);
  }, 60_000);
});

describe('collectStartGarbage', () => {
  const externalMb = () => process.memoryUsage().external / 2 ** 20;

  it('gives back a WebAssembly memory left unreachable (as opening PGlite leaves one), without exposing gc to the process', async () => {
    // 256 MB, every page written, as a database's memory is.
    let memory: WebAssembly.Memory | null = new WebAssembly.Memory({ initial: 4096 });
    new Uint8Array(memory.buffer).fill(1);
    const held = externalMb();
    memory = null;
    await wait(50);
    // Unreachable, and still held: nothing collects an idle process's garbage by itself.
    expect(externalMb()).toBeGreaterThan(held - 16);

    await collectStartGarbage();
    expect(externalMb()).toBeLessThan(held - 200);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});

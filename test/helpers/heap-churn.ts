/**
 * Run by test/server/heap.test.ts in a process of its own (`bounded` as its argument: with the
 * server's heap growth bound): keeps its last 3,000 answers, as a response cache does, so each one
 * lives long enough to reach the old generation and dies there; prints the heap's largest size in bytes.
 */
import { boundHeapGrowth } from '../../server/heap';

if (process.argv[2] === 'bounded') boundHeapGrowth();
const kept: unknown[] = new Array(3000).fill(null);
let largest = 0;
for (let answer = 0; answer < 40_000; answer++) {
  kept[answer % kept.length] = Array.from({ length: 200 }, (_, index) => ({ index, answer }));
  if (answer % 500 === 0) largest = Math.max(largest, process.memoryUsage().heapTotal);
}
process.stdout.write(String(largest));

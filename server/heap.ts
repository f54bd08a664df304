/**
 * How far V8 lets the heap grow past what survived its last full collection before it collects
 * again. Left to itself, V8 sizes that step to the machine and to how fast it collects: on a host
 * with gigabytes free, a server holding 45–55 MB of live data let its heap reach 165–282 MB, most
 * of it answers, ranges and charts long since sent, and its RSS 264–397 MB after a bench run. The
 * garbage stayed until the next full collection, which an idle server does not have.
 *
 * Growing by half the live size instead kept that server's heap at 113–123 MB and its RSS at
 * 185–231 MB, for three times as many full collections (their marking mostly on V8's own threads)
 * and no measurable cost per request (bench/README.md). It is not a cap, as `--max-old-space-size` is:
 * a heap whose live data grows still gets the room, it is only collected sooner.
 */
import { setTimeout as wait } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';

const HEAP_GROWTH_FLAG = '--heap-growing-percent=50';

/** For the serving processes, first thing: V8 reads the flag each time it sets the next collection's limit. */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(HEAP_GROWTH_FLAG);
}

/**
 * V8's full collection, taken from a context of its own: `--expose-gc` set at run time applies to
 * the contexts made after it, so this process's own global never gets a `gc` that a dependency
 * could call.
 */
function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/**
 * Collects what the start left unreachable, before the server listens. Opening the embedded
 * database on a new data folder leaves some 500 MB outside V8's heap unreachable, which only the
 * full collections after it give back, and an idle server has none: a fresh `npm start` stayed at
 * 733–785 MB of RSS for as long as no traffic came, in three starts of ten (317–422 MB in the
 * others; 311–323 in five starts with this). The first collection frees part of it; the rest goes
 * at the next one, once the first one's finalizers have run on a later turn of the event loop.
 * The two take 54–79 ms on the embedded database and 45–46 on PostgreSQL, once.
 */
export async function collectStartGarbage(): Promise<void> {
  const collect = fullCollection();
  collect();
  await wait(0);
  collect();
}

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
import v8 from 'node:v8';

const HEAP_GROWTH_FLAG = '--heap-growing-percent=50';

/** For the serving processes, first thing: V8 reads the flag each time it sets the next collection's limit. */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(HEAP_GROWTH_FLAG);
}

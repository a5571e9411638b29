/**
 * Long work on the server's one thread, done in steps (ADR 43): between steps the event loop runs
 * what else is waiting (other requests, timers), so a 100,000-keyword import or view never holds
 * the process for more than a few tens of milliseconds at a time.
 */

/** How long one step may run before it lets the event loop through. */
export const STEP_MS = 10;

/** Lets the event loop run what is waiting (I/O and timers first), then goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock of the current step: `due()` says when the step has run long enough to yield. */
export function stepClock(stepMs = STEP_MS): { due: () => boolean; pause: () => Promise<void> } {
  let started = performance.now();
  return {
    due: () => performance.now() - started >= stepMs,
    pause: async () => {
      await yieldToEventLoop();
      started = performance.now();
    },
  };
}

/** Calls fn on each item, yielding to the event loop every STEP_MS or so. */
export async function forEachInSteps<T>(items: Iterable<T>, fn: (item: T, index: number) => void): Promise<void> {
  const clock = stepClock();
  let i = 0;
  for (const item of items) {
    fn(item, i++);
    if ((i & 255) === 0 && clock.due()) await clock.pause();
  }
}

const RUN = 512;

/**
 * A stable sort (as Array.prototype.sort) in steps: runs of RUN items sorted natively, then
 * merged pairwise, the event loop let through every STEP_MS. Returns a new array.
 */
export async function sortInSteps<T>(items: readonly T[], compare: (a: T, b: T) => number): Promise<T[]> {
  const clock = stepClock();
  let src: T[] = [];
  for (let start = 0; start < items.length; start += RUN) {
    const run = items.slice(start, start + RUN).sort(compare);
    for (const item of run) src.push(item);
    if (clock.due()) await clock.pause();
  }
  let dst: T[] = new Array<T>(src.length);
  for (let width = RUN; width < src.length; width *= 2) {
    for (let left = 0; left < src.length; left += 2 * width) {
      const mid = Math.min(left + width, src.length);
      const right = Math.min(left + 2 * width, src.length);
      let i = left;
      let j = mid;
      let k = left;
      while (i < mid && j < right) {
        dst[k++] = compare(src[j]!, src[i]!) < 0 ? src[j++]! : src[i++]!;
        if ((k & 1023) === 0 && clock.due()) await clock.pause();
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < right) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  return src;
}

import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Cores on which nothing runs right now, the caller's own thread aside: the machine's cores less
 * the tasks Linux counts as running in /proc/loadavg (its fourth field, "running/total"), which
 * include the thread reading it. 0 where that count cannot be read (another system).
 */
export function freeCores(
  readLoadAverage: () => string = () => readFileSync('/proc/loadavg', 'utf8'),
  cores: number = os.availableParallelism(),
): number {
  let running: number;
  try {
    running = Number(/^\S+ \S+ \S+ (\d+)\//.exec(readLoadAverage())?.[1]);
  } catch {
    return 0;
  }
  if (!Number.isInteger(running) || running < 1) return 0;
  return Math.max(0, cores - (running - 1));
}

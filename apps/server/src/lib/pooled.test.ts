import { describe, expect, it } from 'vitest';
import { pooled } from './pooled.js';

describe('pooled', () => {
  it('runs every task once, in order of index, never more than `parallel` at a time', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await pooled(7, 3, async (index) => {
      started.push(index);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (index % 3)));
      running -= 1;
    });
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
    await pooled(0, 4, () => Promise.reject(new Error('no task to run')));
  });
});

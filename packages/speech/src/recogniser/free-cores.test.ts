import { describe, expect, it } from 'vitest';
import { freeCores } from './free-cores.js';

describe('freeCores', () => {
  it('counts the cores that no running task holds, the reader aside', () => {
    expect(freeCores(() => '0.52 0.61 0.70 1/412 90210\n', 2)).toBe(2);
    expect(freeCores(() => '1.98 1.50 1.20 2/415 90211\n', 2)).toBe(1);
    expect(freeCores(() => '5.00 4.00 3.00 6/415 90212\n', 4)).toBe(0);
  });

  it('gives 0 where the running tasks cannot be read', () => {
    expect(
      freeCores(() => {
        throw new Error('ENOENT: no such file or directory');
      }, 8),
    ).toBe(0);
    expect(freeCores(() => 'not a load average', 8)).toBe(0);
  });

  it('reads this machine: between 0 and its cores', () => {
    const free = freeCores();
    expect(free).toBeGreaterThanOrEqual(0);
    expect(free).toBeLessThanOrEqual(8192);
  });
});

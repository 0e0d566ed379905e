import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('is prefixed, URL-safe, unique and sorts by creation time', async () => {
    const first = newId('msg');
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = newId('msg');
    expect(first).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(second > first).toBe(true);
    expect(new Set(Array.from({ length: 10_000 }, () => newId('x'))).size).toBe(10_000);
  });
});

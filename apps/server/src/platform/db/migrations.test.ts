import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.js';
import recorded from './migrations/checksums.json' with { type: 'json' };

const directory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

async function checksum(name: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path.join(directory, `${name}.ts`)))
    .digest('hex');
}

describe('migrations are append-only', () => {
  it('lists every migration file, in name order', async () => {
    const files = (await readdir(directory))
      .filter((file) => /^\d{4}_.+\.ts$/.test(file) && !file.endsWith('.test.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    const names = Object.keys(migrations);
    expect(names).toEqual([...files].sort());
    expect(names).toEqual([...names].sort());
  });

  it('keeps every landed migration exactly as it was recorded', async () => {
    const checksums: Record<string, string> = recorded;
    for (const name of Object.keys(migrations)) {
      const actual = await checksum(name);
      expect(
        checksums[name],
        `migration ${name} has no recorded checksum: add "${name}": "${actual}" to migrations/checksums.json`,
      ).toBeDefined();
      expect(actual, `migration ${name} was edited after it landed: write a new migration instead`).toBe(
        checksums[name],
      );
    }
    expect(
      Object.keys(checksums).filter((name) => !(name in migrations)),
      'a landed migration was removed',
    ).toEqual([]);
  });
});

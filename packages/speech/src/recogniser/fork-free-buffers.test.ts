import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedModelsDir } from '../test-support/paths.js';
import { RecogniserPool } from './recogniser-pool.js';

/**
 * Resident bytes of this process's mappings that a child started by fork() does not get (VmFlags
 * `dc`). Node.js itself has about 4 MB of them; V8's address-space reservations are not resident.
 */
function notCopiedOnForkBytes(): number {
  let bytes = 0;
  let sizeKb = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const size = /^Rss:\s+(\d+) kB/.exec(line);
    if (size) sizeKb = Number(size[1]);
    if (line.startsWith('VmFlags:') && line.split(/\s+/).includes('dc')) bytes += sizeKb * 1024;
  }
  return bytes;
}

// Node.js starts ffmpeg by fork(), on the event loop, whose cost grows with the pages it copies
// (native/fork-free-buffers.cmake): the whisper weights must not be among them.
describe.runIf(process.platform === 'linux')(
  'a loaded model and starting a program',
  { timeout: 120_000 },
  () => {
    let pool: RecogniserPool;

    beforeAll(async () => {
      pool = new RecogniserPool({ workers: 1, threadsPerWorker: 1 });
      await pool.preload(path.join(sharedModelsDir, 'ggml-base-q8_0.bin'));
    });

    afterAll(async () => {
      await pool.close();
    });

    it("keeps the model's buffers out of a child process, which still starts and runs", () => {
      // ggml-base-q8_0.bin is 82 MB, most of it weights: 129 MB of such memory once it is loaded.
      expect(notCopiedOnForkBytes()).toBeGreaterThan(70 * 1024 * 1024);
      expect(execFileSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' })).toMatch(
        /ffmpeg version/,
      );
    });
  },
);

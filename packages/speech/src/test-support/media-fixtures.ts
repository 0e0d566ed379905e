import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { testdataFile } from './paths.js';

/** A temporary folder for generated media, removed by `dispose()`. */
export interface MediaScratch {
  dir: string;
  file(name: string): string;
  /** Runs Debian's ffmpeg with these arguments (output paths relative to `dir`) and returns the output's path. */
  ffmpeg(args: string[], outputName: string): string;
  /** The first `fraction` of a file's bytes, as a file cut short during an upload would be. */
  truncated(sourcePath: string, fraction: number, outputName: string): string;
  write(name: string, data: string | Uint8Array): string;
  dispose(): void;
}

export function createMediaScratch(prefix = 'verbatim-speech-'): MediaScratch {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    file,
    ffmpeg(args, outputName) {
      const output = file(outputName);
      execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args, output], {
        timeout: 60_000,
      });
      return output;
    },
    truncated(sourcePath, fraction, outputName) {
      const bytes = readFileSync(sourcePath);
      return this.write(outputName, bytes.subarray(0, Math.floor(bytes.length * fraction)));
    },
    write(name, data) {
      writeFileSync(file(name), data);
      return file(name);
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Copies a test recording under another name, e.g. to check that decoding ignores the extension. */
export function copyTestRecording(relativePath: string, scratch: MediaScratch, name: string): string {
  copyFileSync(testdataFile(relativePath), scratch.file(name));
  return scratch.file(name);
}

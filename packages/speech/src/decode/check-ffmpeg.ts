import { SpeechError } from '../speech-error.js';
import { ffmpegBinariesFromEnv, ffmpegInstallHint, type FfmpegBinaries } from './ffmpeg-binaries.js';
import { runProcess } from './run-process.js';

export type FfmpegCheck = { available: true; version: string } | { available: false; problem: string };

/**
 * For start-up: whether ffmpeg and ffprobe both run, and which ffmpeg version it is (e.g. `5.1.6-0+deb12u1`).
 * Never throws; the problem names the missing tool and how to install it.
 */
export async function checkFfmpeg(binaries: FfmpegBinaries = ffmpegBinariesFromEnv()): Promise<FfmpegCheck> {
  let version = '';
  for (const [tool, command] of [
    ['ffmpeg', binaries.ffmpegPath],
    ['ffprobe', binaries.ffprobePath],
  ] as const) {
    try {
      const result = await runProcess(command, ['-hide_banner', '-version'], { timeoutMs: 15_000 });
      const match = /^\S+ version (\S+)/m.exec(result.stdout);
      if (result.exitCode !== 0 || !match) {
        return {
          available: false,
          problem: `${tool} (${command}) did not report its version. ${ffmpegInstallHint}`,
        };
      }
      if (tool === 'ffmpeg') version = match[1] ?? '';
    } catch (error) {
      const why = error instanceof SpeechError ? error.message : `${tool} could not be started.`;
      return { available: false, problem: `${why} (${tool}: ${command})`.replace(/\s+/g, ' ') };
    }
  }
  return { available: true, version };
}

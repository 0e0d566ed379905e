/**
 * Which ffmpeg and ffprobe executables the decoder runs. Passed in as a small object (never global
 * state) so that a test or an operator can point at another build; the defaults come from the
 * environment, then from the PATH.
 */
export interface FfmpegBinaries {
  ffmpegPath: string;
  ffprobePath: string;
}

/** `FFMPEG_PATH` / `FFPROBE_PATH` when set and not blank, else `ffmpeg` / `ffprobe` looked up on the PATH. */
export function ffmpegBinariesFromEnv(env: NodeJS.ProcessEnv = process.env): FfmpegBinaries {
  return {
    ffmpegPath: env.FFMPEG_PATH?.trim() || 'ffmpeg',
    ffprobePath: env.FFPROBE_PATH?.trim() || 'ffprobe',
  };
}

/** What to tell an operator whose machine lacks ffmpeg. */
export const ffmpegInstallHint =
  'Install it with `apt-get install -y ffmpeg` (Debian/Ubuntu), or set FFMPEG_PATH and FFPROBE_PATH.';

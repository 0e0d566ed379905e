import { describe, expect, it } from 'vitest';

import { checkFfmpeg } from './check-ffmpeg.js';
import { ffmpegBinariesFromEnv } from './ffmpeg-binaries.js';

describe('checkFfmpeg', () => {
  it("reports Debian's ffmpeg and its version", async () => {
    const check = await checkFfmpeg({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
    expect(check).toEqual({ available: true, version: expect.stringMatching(/^\d+\.\d+/) as unknown });
  });

  it.each([
    [{ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: 'ffprobe' }, 'ffmpeg'],
    [{ ffmpegPath: 'ffmpeg', ffprobePath: 'verbatim-no-such-ffprobe' }, 'ffprobe'],
  ])('names the missing tool and how to install it (%o)', async (binaries, tool) => {
    const check = await checkFfmpeg(binaries);
    expect(check.available).toBe(false);
    if (check.available) return;
    expect(check.problem).toContain(`${tool} is not installed`);
    expect(check.problem).toContain('apt-get install -y ffmpeg');
  });

  it('takes the paths from FFMPEG_PATH and FFPROBE_PATH, else from the PATH', () => {
    expect(ffmpegBinariesFromEnv({})).toEqual({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
    expect(ffmpegBinariesFromEnv({ FFMPEG_PATH: '/opt/ff/ffmpeg', FFPROBE_PATH: ' ' })).toEqual({
      ffmpegPath: '/opt/ff/ffmpeg',
      ffprobePath: 'ffprobe',
    });
  });
});

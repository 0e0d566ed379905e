import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from './native-addon.js';

describe('the whisper.cpp addon build', () => {
  // The speed figures of bench:speech depend on these ggml options (native/Cargo.toml, ggml-options.cmake):
  // a dependency update or a build script change that drops one must not pass unnoticed.
  it('runs ggml threads as an OpenMP team and multiplies matrices with llamafile kernels', () => {
    const features = loadNativeAddon().systemInfo();
    expect(features).toMatch(/\bOPENMP = 1\b/);
    expect(features).toMatch(/\bLLAMAFILE = 1\b/);
  });
});

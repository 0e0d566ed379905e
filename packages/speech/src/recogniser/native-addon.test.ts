import { describe, expect, it } from 'vitest';
import { loadNativeAddon, openMpSpinCount, useOpenMpWaitPolicy } from './native-addon.js';

describe('the whisper.cpp addon build', () => {
  // The speed figures of bench:speech depend on these ggml options (native/Cargo.toml, ggml-options.cmake):
  // a dependency update or a build script change that drops one must not pass unnoticed.
  it('runs ggml threads as an OpenMP team and multiplies matrices with llamafile kernels', () => {
    const features = loadNativeAddon().systemInfo();
    expect(features).toMatch(/\bOPENMP = 1\b/);
    expect(features).toMatch(/\bLLAMAFILE = 1\b/);
  });
});

describe('the OpenMP wait policy of whisper.cpp threads', () => {
  it('is passive after a brief spin unless the operator chose one, so that a busy core does not make threads spin', () => {
    const unset: NodeJS.ProcessEnv = {};
    useOpenMpWaitPolicy(unset);
    expect(unset.OMP_WAIT_POLICY).toBe('passive');
    expect(unset.GOMP_SPINCOUNT).toBe(String(openMpSpinCount));
    expect(openMpSpinCount).toBeLessThanOrEqual(100_000);
    const active: NodeJS.ProcessEnv = { OMP_WAIT_POLICY: 'active' };
    useOpenMpWaitPolicy(active);
    expect(active.OMP_WAIT_POLICY).toBe('active');
    const spinCount: NodeJS.ProcessEnv = { GOMP_SPINCOUNT: '10000' };
    useOpenMpWaitPolicy(spinCount);
    expect(spinCount.OMP_WAIT_POLICY).toBeUndefined();
  });

  it('is in the process environment once the addon is loaded (libgomp reads it at load)', () => {
    loadNativeAddon();
    expect(process.env.OMP_WAIT_POLICY ?? `GOMP_SPINCOUNT=${process.env.GOMP_SPINCOUNT}`).toMatch(
      /passive|active|GOMP_SPINCOUNT=\d/,
    );
  });
});

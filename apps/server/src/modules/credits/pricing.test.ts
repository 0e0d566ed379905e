import { describe, expect, it } from 'vitest';
import { billedSeconds, costMicros, creditMicrosToCents, usageMicrosToCents } from './pricing.js';

describe('pricing', () => {
  it('charges each started second', () => {
    expect(billedSeconds(1)).toBe(1);
    expect(billedSeconds(0.2)).toBe(1);
    expect(billedSeconds(59.001)).toBe(60);
  });

  it('prices an hour exactly and a second rounded up to the micro-dollar', () => {
    // The spec's defaults: $0.10, $0.30 and $0.15 per hour.
    expect(costMicros(3600, 100_000)).toBe(100_000);
    expect(costMicros(3600, 300_000)).toBe(300_000);
    expect(costMicros(3600, 150_000)).toBe(150_000);
    expect(costMicros(1, 100_000)).toBe(28); // 27.78 rounded up
    expect(costMicros(1, 300_000)).toBe(84); // 83.33 rounded up
    expect(costMicros(36, 100_000)).toBe(1000); // exact: a tenth of a cent
    expect(costMicros(10, 0)).toBe(0);
  });

  it('shows usage rounded up and credit rounded down to the cent', () => {
    expect(usageMicrosToCents(0)).toBe(0);
    expect(usageMicrosToCents(28)).toBe(1);
    expect(usageMicrosToCents(10_000)).toBe(1);
    expect(usageMicrosToCents(10_001)).toBe(2);
    expect(creditMicrosToCents(5_000_000)).toBe(500);
    expect(creditMicrosToCents(5_009_999)).toBe(500);
  });
});

import { describe, expect, it } from 'vitest';
import { formatPercent, formatUsd } from './money.js';

describe('money formatting', () => {
  it('formats cents as dollars with two decimals and thousands separators', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(12_100)).toBe('$121.00');
    expect(formatUsd(123_456_789)).toBe('$1,234,567.89');
    expect(formatUsd(-1_050)).toBe('-$10.50');
    expect(formatUsd(123_456, 'fr')).toBe('1 234,56 $US');
    expect(() => formatUsd(1.5)).toThrow(RangeError);
  });

  it('formats rates without trailing zeros', () => {
    expect(formatPercent(20)).toBe('20%');
    expect(formatPercent(25.5)).toBe('25.5%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(25.5, 'fr')).toBe('25,5 %');
  });
});

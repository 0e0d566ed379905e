import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration } from './dateTime';
import { formatCents, formatCreditBalance, formatPricePerHour } from './money';

describe('formatting', () => {
  it('writes the credit balance of spec §9 in dollars with 2 decimals, per language', () => {
    expect(formatCreditBalance({ ceiling: 500, currentUsage: 11 }, 'en')).toBe('$4.89');
    expect(formatCreditBalance({ ceiling: 1500, currentUsage: 0 }, 'fr')).toMatch(/^15,00\s\$US$/);
    expect(formatCents(123456, 'en')).toBe('$1,234.56');
  });

  it('keeps the precision of prices per hour', () => {
    expect(formatPricePerHour(100_000, 'en')).toBe('$0.10');
    expect(formatPricePerHour(125_000, 'en')).toBe('$0.125');
  });

  it('writes dates as YYYY-MM-DD HH:mm:ss and durations as hh:mm:ss', () => {
    const local = new Date(2025, 0, 2, 3, 4, 5);
    expect(formatDateTime(local.toISOString())).toBe('2025-01-02 03:04:05');
    expect(formatDuration(3725)).toBe('01:02:05');
    expect(formatDuration(0)).toBe('00:00:00');
    // Spec §3: durations are seconds, possibly fractional; a long recording may pass 99 hours.
    expect(formatDuration(59.6)).toBe('00:01:00');
    expect(formatDuration(360_000)).toBe('100:00:00');
  });
});

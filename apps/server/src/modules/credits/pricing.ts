/**
 * Money of the metering ledger. Prices are per hour of audio and charged per second, and
 * $0.10/hour is 27.78 micro-dollars a second: no integer unit makes every per-second price exact.
 * The ledger therefore counts in micro-dollars (millionths of a dollar, integers, far below 2^53),
 * and each charge is rounded up to the next micro-dollar: a customer pays at most $0.000001 more
 * per charge than the exact price. The API speaks cents: usage is rounded up to the cent and
 * credit is always whole cents, so the balance shown, (ceiling − currentUsage) / 100, is never
 * more than can actually be spent.
 */
export const microsPerCent = 10_000;

/** Each started second of audio is charged. */
export function billedSeconds(seconds: number): number {
  return Math.ceil(seconds);
}

/** The price of `billed` whole seconds at `microsPerHour`, rounded up to the micro-dollar. */
export function costMicros(billed: number, microsPerHour: number): number {
  return Math.ceil((billed * microsPerHour) / 3600);
}

/** Usage shown in cents: rounded up. */
export function usageMicrosToCents(micros: number): number {
  return Math.ceil(micros / microsPerCent);
}

/** Credit shown in cents: rounded down (credits are whole cents, so this is exact in practice). */
export function creditMicrosToCents(micros: number): number {
  return Math.floor(micros / microsPerCent);
}

export function centsToMicros(cents: number): number {
  return cents * microsPerCent;
}

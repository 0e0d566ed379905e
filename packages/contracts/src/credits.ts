import { z } from 'zod';

/**
 * Metered products (spec §9 prices): the HTTP API, live streaming over the socket, and
 * pre-recorded audio sent over the socket. Each is charged per second of audio.
 */
export const meteredProducts = ['http_api', 'ws_streaming', 'ws_prerecorded'] as const;
export const meteredProductSchema = z.enum(meteredProducts);
export type MeteredProduct = z.infer<typeof meteredProductSchema>;

/**
 * The prepaid credit of spec §3 Settings: `ceiling` is everything credited (purchases and the
 * starting credit), `currentUsage` everything used, both in cents. The balance is
 * (ceiling − currentUsage) / 100 dollars. The ledger counts in millionths of a dollar; usage is
 * rounded up to the cent here, so the balance shown is never more than can be spent.
 */
export const creditsSchema = z
  .object({
    ceiling: z.int().nonnegative(),
    currentUsage: z.int().nonnegative(),
  })
  .meta({ id: 'Credits' });
export type Credits = z.infer<typeof creditsSchema>;

/** One product's line of `GET /limiter/usages`: all usage of the account since it was opened. */
export const usageSchema = z
  .object({
    name: meteredProductSchema,
    /** Seconds of audio charged (each started second counts). */
    seconds: z.int().nonnegative(),
    /** Number of charges. */
    calls: z.int().nonnegative(),
    /** What they cost, in cents, rounded up. */
    currentUsage: z.int().nonnegative(),
    /** Today's price per hour of audio, in millionths of a dollar (100000 = $0.10). */
    pricePerHourMicros: z.int().nonnegative(),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof usageSchema>;

export const usagesSchema = z.array(usageSchema).meta({ id: 'Usages' });

/** Spec §9: balance shown = (ceiling − currentUsage) / 100, in dollars. */
export function creditBalanceDollars(credits: Credits): number {
  return (credits.ceiling - credits.currentUsage) / 100;
}

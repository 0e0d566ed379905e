import { z } from 'zod';

export const healthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    uptimeSeconds: z.number().nonnegative(),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof healthSchema>;

export const readinessCheckSchema = z.object({
  ok: z.boolean(),
  detail: z.string().optional(),
});

export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      database: readinessCheckSchema.extend({ latencyMs: z.number().nonnegative().optional() }),
      migrations: readinessCheckSchema.extend({ pending: z.array(z.string()) }),
      /**
       * The speech engine: ffmpeg found and a usable model installed. Reported, but not part of
       * `status`: without a model the node still serves accounts, billing and the console, and
       * `detail` says how to add one.
       */
      speech: readinessCheckSchema.extend({
        models: z.array(z.string()).describe('Usable models installed.'),
        workers: z.int().nonnegative(),
        busy: z.int().nonnegative(),
        waiting: z.int().nonnegative(),
      }),
      /**
       * Where files are kept (`local` folder or `s3` bucket): whether it can be read and written
       * now, and why not in `detail`. Reported, but not part of `status`: without its store the
       * node still serves accounts, billing and live transcription; uploads answer 503
       * STORAGE_UNAVAILABLE until it is back.
       */
      storage: readinessCheckSchema.extend({
        kind: z.enum(['local', 's3']),
        latencyMs: z.number().nonnegative().optional(),
      }),
      /**
       * The on-premise edition only: whether its licence lets new work start (`detail` says why
       * not and what to do, `code` is the LICENSE_… code transcription answers). Reported, but not
       * part of `status`: with a licence problem the node still serves accounts and the console.
       */
      licence: readinessCheckSchema
        .extend({ code: z.string().nullable().describe('The LICENSE_… code refusing work, or null.') })
        .optional(),
    }),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof readinessSchema>;

const externalUrl = z.url({ protocol: /^https?$/ });

/** What the console needs to know about this installation before anyone signs in. */
export const consoleConfigSchema = z
  .object({
    productName: z.string().min(1),
    version: z.string(),
    links: z.object({
      pricing: externalUrl,
      docs: externalUrl,
      contact: externalUrl,
      demo: externalUrl,
      privacyPolicy: externalUrl,
      generalTerms: externalUrl,
      social: z.array(z.object({ name: z.string().min(1), url: externalUrl })),
    }),
    /**
     * `on_premise`: the licensed edition, which counts usage against its licence; the console hides
     * billing and credit there and shows the licence on /on-premise.
     */
    edition: z.enum(['cloud', 'on_premise']),
    /** The on-premise offer page and the sales address the On-premise screen links to. */
    onPremise: z.object({ offerUrl: externalUrl, salesEmail: z.email() }),
    /**
     * The on-premise edition's licence problem, before anyone signs in (null when the licence lets
     * work start, and always null in the cloud product): the code transcription answers and why.
     */
    licenceProblem: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'ConsoleConfig' });
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

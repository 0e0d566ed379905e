import { type CreateApiKeyRequest, maxMonthlyCapCents } from '@verbatim/contracts';
import { z } from 'zod';
import type { TranslationKey } from '../../i18n/translationKey';

const message = (key: TranslationKey) => key;

/** The end of a chosen day (YYYY-MM-DD) in the browser's time zone: a key works through that whole day. */
export function endOfDay(day: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The API refuses expiry dates more than 5 years away. */
const maxLifetimeDays = 5 * 365;

/**
 * The generate modal's form: everything optional. Messages are translation keys. The monthly cap
 * is typed in dollars and sent in cents.
 */
export const generateApiKeyFormSchema = z
  .object({
    name: z.string().trim().max(64, message('screens.apiKeys.generate.nameTooLong')),
    expiresOn: z.string().refine((day) => {
      if (day === '') return true;
      const end = endOfDay(day);
      return (
        end !== undefined &&
        end.getTime() > Date.now() &&
        end.getTime() < Date.now() + maxLifetimeDays * 86_400_000
      );
    }, message('screens.apiKeys.generate.expiryInvalid')),
    monthlyCap: z
      .union([z.number(), z.literal('')])
      .refine(
        (dollars) => dollars === '' || (dollars >= 0.01 && Math.round(dollars * 100) <= maxMonthlyCapCents),
        message('screens.apiKeys.generate.capInvalid'),
      ),
  })
  .transform(({ name, expiresOn, monthlyCap }): CreateApiKeyRequest => ({
    name: name === '' ? null : name,
    expiresAt: expiresOn === '' ? null : (endOfDay(expiresOn)?.toISOString() ?? null),
    monthlyCapCents: monthlyCap === '' ? null : Math.round(monthlyCap * 100),
  }));

export type GenerateApiKeyFormInput = z.input<typeof generateApiKeyFormSchema>;
export type GenerateApiKeyFormOutput = z.output<typeof generateApiKeyFormSchema>;

export const emptyGenerateApiKeyForm: GenerateApiKeyFormInput = { name: '', expiresOn: '', monthlyCap: '' };

/** Today as YYYY-MM-DD in the browser's time zone: the earliest expiry the date picker offers. */
export function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

import {
  transcriptDeletionDays,
  type InterfaceLanguage,
  type TranscriptDeletionOption,
} from '@verbatim/contracts';

const names: Record<InterfaceLanguage, { never: string; days: (days: number) => string }> = {
  en: { never: 'Never', days: (days) => (days === 1 ? '1 day' : days === 365 ? '1 year' : `${days} days`) },
  fr: { never: 'Jamais', days: (days) => (days === 1 ? '1 jour' : days === 365 ? '1 an' : `${days} jours`) },
};

/** `GET /settings/transcript-deletion`: never, then each period of the contract, shortest first. */
export function transcriptDeletionOptions(locale: InterfaceLanguage): TranscriptDeletionOption[] {
  const name = names[locale];
  return [
    { days: null, name: name.never },
    ...transcriptDeletionDays.map((days) => ({ days, name: name.days(days) })),
  ];
}

import type { ParseKeys } from 'i18next';

/** A key of the translation files, for data that names a string to show later (route handles, toasts). */
export type TranslationKey = ParseKeys;

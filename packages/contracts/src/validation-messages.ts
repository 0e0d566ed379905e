/**
 * The spec's validation messages (section 5), word for word. Schemas use these English texts so
 * API clients get readable details; the console finds the key of a message here and shows its
 * translation (`validation.<key>` in the console's language files).
 */
export const validationMessages = {
  required: 'This field is required',
  emailInvalid: 'Please fill in a valid email address',
  emailTooShort: 'Use at least 3 characters',
  emailTooLong: 'Use maximum 32 characters',
  passwordRule:
    'Password must be 8-64 characters, and contain at least one uppercase letter, one lowercase letter, one number and one special character',
  passwordsDoNotMatch: 'Password and confirm password do not match',
  captchaRequired: 'Please verify that you are not a robot',
  fullNameInvalid: 'Invalid full name',
  passwordInvalid: 'Invalid password',
  // The payment form (spec §5). payments.ts and vat.ts carry the same texts in their own constants;
  // listing them here is what lets the console find their translations.
  creditsInvalid: 'Invalid credits',
  countryInvalid: 'Select valid country',
  companyNameRequired: 'Required company name',
  vatNumberInvalid: 'Invalid vatNumber',
  paymentMethodInvalid: 'Invalid payment method',
  // The upload modal (spec §5 Upload file); files.ts gathers them for the upload.
  fileInvalid: 'Invalid file',
  languageInvalid: 'Invalid language',
  urlInvalid: 'Invalid url',
} as const;

export type ValidationMessageKey = keyof typeof validationMessages;

const keysByMessage = new Map<string, ValidationMessageKey>(
  Object.entries(validationMessages).map(([key, message]) => [message, key as ValidationMessageKey]),
);

/** The key of one of the messages above, to translate it; undefined for any other text. */
export function validationMessageKey(message: string): ValidationMessageKey | undefined {
  return keysByMessage.get(message);
}

import { validationMessageKey } from '@verbatim/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Translates a validation message of the contracts (spec §5, in English in the schemas) into the
 * interface language; any other text is shown as it is.
 */
export function useValidationText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (message) => {
      if (message === undefined) return undefined;
      const key = validationMessageKey(message);
      return key ? t(`validation.${key}`) : message;
    },
    [t],
  );
}

import { SegmentedControl, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/createI18n';
import { isLanguageCode, type LanguageCode, supportedLanguages } from '../i18n/resources';
import { settingsQuery, updateSettings } from '../settings/settingsApi';

export interface LanguageSwitchProps {
  /** Signed in: the choice is also saved in the account's settings, which the next sign-in applies. */
  saveToSettings?: boolean;
}

/** EN / FR switch of the header; i18next saves the choice and updates <html lang>. */
export function LanguageSwitch({ saveToSettings = false }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (language: LanguageCode) => updateSettings({ language }),
    // The switch itself shows the change; only a failure is worth a toast (spec §8 settings toasts).
    meta: { successMessage: false, errorMessage: 'toast.settingsUpdateFailed' },
    onSuccess: (settings) => queryClient.setQueryData(settingsQuery.queryKey, settings),
  });
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('chrome.header.languageSwitch')}
      value={currentLanguage(i18n)}
      onChange={(value) => {
        if (!isLanguageCode(value)) return;
        void i18n.changeLanguage(value);
        if (saveToSettings) save.mutate(value);
      }}
      data={supportedLanguages.map((language) => ({
        value: language.code,
        label: (
          <span lang={language.code}>
            <span aria-hidden>{language.shortLabel}</span>
            <VisuallyHidden>{language.name}</VisuallyHidden>
          </span>
        ),
      }))}
    />
  );
}

import { SegmentedControl, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/createI18n';
import { isLanguageCode, supportedLanguages } from '../i18n/resources';

/** EN / FR switch of the header; i18next saves the choice and updates <html lang>. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('chrome.header.languageSwitch')}
      value={currentLanguage(i18n)}
      onChange={(value) => {
        if (isLanguageCode(value)) void i18n.changeLanguage(value);
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

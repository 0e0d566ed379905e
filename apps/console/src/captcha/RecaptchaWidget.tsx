import { Alert } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadRecaptcha } from './loadRecaptcha';

export interface RecaptchaWidgetProps {
  siteKey: string;
  scriptUrl: string;
  /** The token once the user passed the check, null when it expired or failed. */
  onChange: (solution: string | null) => void;
}

/** Google reCAPTCHA v2 ("I'm not a robot"), chosen by the server's configuration. */
export function RecaptchaWidget({ siteKey, scriptUrl, onChange }: RecaptchaWidgetProps) {
  const { t, i18n } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  // The latest callback without re-rendering the widget, which Google allows once per element.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    let cancelled = false;
    const element = document.createElement('div');
    container.current?.append(element);
    loadRecaptcha(scriptUrl, i18n.language).then(
      (grecaptcha) => {
        if (cancelled) return;
        grecaptcha.render(element, {
          sitekey: siteKey,
          callback: (token) => onChangeRef.current(token),
          'expired-callback': () => onChangeRef.current(null),
          'error-callback': () => onChangeRef.current(null),
        });
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      element.remove();
    };
  }, [siteKey, scriptUrl, i18n.language]);

  if (failed) {
    return (
      <Alert color="orange" variant="light">
        {t('captcha.unavailable')}
      </Alert>
    );
  }
  return <div ref={container} data-testid="recaptcha" />;
}

import 'altcha/altcha.css';
import workerUrl from 'altcha/worker?url&no-inline';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface AltchaWidgetProps {
  challengeUrl: string;
  /** The solution (base64 payload) once verified, null when it is not (again). */
  onChange: (solution: string | null) => void;
}

/**
 * ALTCHA's proof-of-work widget. The "external" build loads its worker from our own origin, so
 * the server's CSP needs no `blob:` worker source; the element itself is loaded on first use.
 */
export function AltchaWidget({ challengeUrl, onChange }: AltchaWidgetProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  const [defined, setDefined] = useState(() => customElements.get('altcha-widget') !== undefined);

  useEffect(() => {
    if (defined) return;
    void import('altcha/altcha.ext').then(() => setDefined(true));
  }, [defined]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onStateChange = (event: Event) => {
      const { state, payload } = (event as AltchaStateChangeEvent).detail;
      onChange(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', onStateChange);
    return () => element.removeEventListener('statechange', onStateChange);
  }, [onChange, defined]);

  if (!defined) return null;
  const strings = {
    label: t('captcha.label'),
    verifying: t('captcha.verifying'),
    verified: t('captcha.verified'),
    error: t('captcha.error'),
    expired: t('captcha.expired'),
    waitAlert: t('captcha.waitAlert'),
    ariaLinkLabel: t('captcha.ariaLinkLabel'),
    footer: t('captcha.footer'),
  };
  return (
    <altcha-widget
      ref={ref}
      challengeurl={challengeUrl}
      workerurl={new URL(workerUrl, window.location.origin).href}
      strings={JSON.stringify(strings)}
      hidelogo
      style={{ '--altcha-max-width': '100%' }}
    />
  );
}

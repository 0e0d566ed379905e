import { Alert, Input, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { apiBasePath } from '../api/apiClient';
import { captchaConfigQuery } from '../auth/accountApi';
import { AltchaWidget } from './AltchaWidget';
import { RecaptchaWidget } from './RecaptchaWidget';

export interface CaptchaFieldProps {
  onChange: (solution: string | null) => void;
  /** Already translated. */
  error?: string | undefined;
}

/**
 * The captcha the server asks for (registration, recovery, repeated sign-in). Each solution is
 * single-use: give the field a new `key` after each submission to get a fresh challenge.
 */
export function CaptchaField({ onChange, error }: CaptchaFieldProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const config = useQuery(captchaConfigQuery);

  return (
    <Input.Wrapper
      label={t('captcha.fieldLabel')}
      error={error}
      errorProps={{ id: errorId, role: 'alert' }}
      data-testid="captcha"
    >
      {config.isPending && <Skeleton h={64} />}
      {config.data?.provider === 'altcha' && (
        <AltchaWidget challengeUrl={`${apiBasePath}/auth/captcha/challenge`} onChange={onChange} />
      )}
      {config.data?.provider === 'recaptcha' && config.data.siteKey && config.data.scriptUrl && (
        <RecaptchaWidget
          siteKey={config.data.siteKey}
          scriptUrl={config.data.scriptUrl}
          onChange={onChange}
        />
      )}
      {config.isError && (
        <Alert color="orange" variant="light">
          {t('captcha.unavailable')}
        </Alert>
      )}
    </Input.Wrapper>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type RegisterRequest, type RegisterResponse, registerRequestSchema } from '@verbatim/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiRequestError } from '../../api/ApiRequestError';
import { register as registerAccount } from '../../auth/accountApi';
import { CaptchaField } from '../../captcha/CaptchaField';
import { ExternalLink } from '../../chrome/ExternalLink';
import { showServerValidation } from '../../forms/serverValidation';
import { useValidationText } from '../../forms/useValidationText';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';

type RegisterOutput = z.output<typeof registerRequestSchema>;
const fields = ['email', 'password', 'passConf', 'reCaptchaKey'] as const;

/** Spec §2 Register, with every rule and message of spec §5 from the API's own schema. */
export function RegisterForm({ onRegistered }: { onRegistered: (user: RegisterResponse['user']) => void }) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const termsUrl = useConsoleConfig().data?.links.generalTerms;
  const [captchaKey, setCaptchaKey] = useState(0);
  const { register, handleSubmit, setValue, setError, formState } = useForm<
    RegisterRequest,
    unknown,
    RegisterOutput
  >({
    resolver: zodResolver(registerRequestSchema),
    defaultValues: { email: '', password: '', passConf: '', reCaptchaKey: '', registeredAs: 'api' },
  });
  const submit = useMutation({
    mutationFn: registerAccount,
    meta: { successMessage: false, errorMessage: false },
    onSuccess: ({ user }) => onRegistered(user),
    onError: (error) => {
      if (error instanceof ApiRequestError && error.code === 'EMAIL_IN_USE') {
        setError('email', { type: 'server', message: t('apiErrors.EMAIL_IN_USE') });
      } else if (error instanceof ApiRequestError && error.code === 'CAPTCHA_INVALID') {
        setError('reCaptchaKey', { type: 'server', message: t('apiErrors.CAPTCHA_INVALID') });
      } else {
        showServerValidation(error, fields, setError);
      }
    },
    onSettled: () => {
      setValue('reCaptchaKey', '');
      setCaptchaKey((key) => key + 1);
    },
  });
  const otherFailure =
    submit.error instanceof ApiRequestError &&
    !['EMAIL_IN_USE', 'CAPTCHA_INVALID', 'VALIDATION_FAILED'].includes(submit.error.code)
      ? submit.error
      : null;
  const errorOf = (field: (typeof fields)[number]) => validationText(formState.errors[field]?.message);

  return (
    <form onSubmit={(event) => void handleSubmit((values) => submit.mutate(values))(event)} noValidate>
      <Stack gap="md">
        {otherFailure && (
          <Alert color="red" variant="light" role="alert">
            {t(`apiErrors.${otherFailure.code}`)}
          </Alert>
        )}
        <TextInput
          label={t('screens.register.email')}
          type="email"
          autoComplete="email"
          required
          {...register('email')}
          error={errorOf('email')}
        />
        <PasswordInput
          label={t('screens.register.password')}
          description={t('screens.register.passwordHint')}
          autoComplete="new-password"
          required
          {...register('password')}
          error={errorOf('password')}
        />
        <PasswordInput
          label={t('screens.register.passConf')}
          autoComplete="new-password"
          required
          {...register('passConf')}
          error={errorOf('passConf')}
        />
        <CaptchaField
          key={captchaKey}
          onChange={(solution) =>
            setValue('reCaptchaKey', solution ?? '', { shouldValidate: formState.isSubmitted })
          }
          error={errorOf('reCaptchaKey')}
        />
        {termsUrl && (
          <Text fz="sm" c="dimmed">
            <Trans
              i18nKey="screens.register.terms"
              components={{
                termsLink: (
                  <ExternalLink href={termsUrl} fz="sm">
                    {null}
                  </ExternalLink>
                ),
              }}
            />
          </Text>
        )}
        <Button type="submit" loading={submit.isPending} fullWidth>
          {t('screens.register.submit')}
        </Button>
      </Stack>
    </form>
  );
}

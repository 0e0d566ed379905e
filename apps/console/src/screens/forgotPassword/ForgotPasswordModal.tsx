import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { recoveryRequestSchema } from '@verbatim/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiRequestError } from '../../api/ApiRequestError';
import { requestRecovery } from '../../auth/accountApi';
import { CaptchaField } from '../../captcha/CaptchaField';
import { showServerValidation } from '../../forms/serverValidation';
import { useValidationText } from '../../forms/useValidationText';
import { forgotPasswordSchema } from './forgotPasswordSchema';

type FormInput = z.input<typeof recoveryRequestSchema>;
type FormOutput = z.output<typeof recoveryRequestSchema>;

export interface ForgotPasswordModalProps {
  opened: boolean;
  onClose: () => void;
  /** The request went out: the caller shows the "reset sent" modal. */
  onSent: (email: string) => void;
}

/** Spec §2: e-mail and captcha; the server e-mails a recovery link if the account exists. */
export function ForgotPasswordModal({ opened, onClose, onSent }: ForgotPasswordModalProps) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const [captchaKey, setCaptchaKey] = useState(0);
  const { register, handleSubmit, setValue, setError, reset, formState } = useForm<
    FormInput,
    unknown,
    FormOutput
  >({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '', reCaptchaKey: '' },
  });
  const send = useMutation({
    mutationFn: requestRecovery,
    meta: { successMessage: false, errorMessage: false },
    onSuccess: (_answer, { email }) => {
      reset();
      onSent(email);
    },
    onError: (error) => {
      if (showServerValidation(error, ['email', 'reCaptchaKey'], setError)) return;
      if (error instanceof ApiRequestError && error.code === 'CAPTCHA_INVALID') {
        setError('reCaptchaKey', { type: 'server', message: error.message });
      }
    },
    onSettled: () => {
      setValue('reCaptchaKey', '');
      setCaptchaKey((key) => key + 1);
    },
  });
  const otherFailure =
    send.error instanceof ApiRequestError &&
    !['VALIDATION_FAILED', 'CAPTCHA_INVALID'].includes(send.error.code)
      ? send.error
      : null;

  return (
    <Modal opened={opened} onClose={onClose} title={t('screens.forgotPassword.title')} centered>
      <form onSubmit={(event) => void handleSubmit((values) => send.mutate(values))(event)} noValidate>
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {t('screens.forgotPassword.intro')}
          </Text>
          {otherFailure && (
            <Alert color="red" variant="light" role="alert">
              {t(`apiErrors.${otherFailure.code}`)}
            </Alert>
          )}
          <TextInput
            label={t('screens.forgotPassword.email')}
            type="email"
            autoComplete="email"
            required
            data-autofocus
            {...register('email')}
            error={validationText(formState.errors.email?.message)}
          />
          <CaptchaField
            key={captchaKey}
            onChange={(solution) =>
              setValue('reCaptchaKey', solution ?? '', { shouldValidate: formState.isSubmitted })
            }
            error={
              formState.errors.reCaptchaKey?.type === 'server'
                ? t('validation.captchaRequired')
                : validationText(formState.errors.reCaptchaKey?.message)
            }
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('screens.forgotPassword.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('screens.forgotPassword.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

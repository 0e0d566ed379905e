import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { signInErrorCodes, type SignInFailure, signInFailure } from '../../auth/signInFailure';
import type { PasswordCredentials } from '../../auth/tokenApi';
import { CaptchaField } from '../../captcha/CaptchaField';
import { useValidationText } from '../../forms/useValidationText';
import { type LoginFormValues, loginFormSchema } from './loginFormSchema';

export interface LoginFormProps {
  /** Signs in; rejects with the server's error. */
  submit: (credentials: PasswordCredentials) => Promise<void>;
  onForgotPassword: () => void;
}

/** E-mail and password, with the answers of spec §4 Login: wrong credentials, captcha, refusals. */
export function LoginForm({ submit, onForgotPassword }: LoginFormProps) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<SignInFailure | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const form = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { username: '', password: '', captchaRequired: false },
  });
  const { register, handleSubmit, setValue, watch, formState } = form;
  const captchaRequired = watch('captchaRequired');

  // Spec §4: the wrong-credentials message goes away as soon as the user edits an input.
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      if (name === 'username' || name === 'password') setFailure(null);
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  const signIn = useMutation({
    mutationFn: submit,
    meta: { successMessage: false, errorMessage: false, handledErrorCodes: signInErrorCodes },
    onError: (error) => {
      const next = signInFailure(error);
      if (next.kind === 'pendingApproval') {
        void navigate(authPaths.pendingApproval);
        return;
      }
      if (next.kind === 'wrongCredentials' && next.captchaRequired) setValue('captchaRequired', true);
      setFailure(next);
    },
    onSettled: () => {
      // A captcha solution is good for one attempt only.
      setValue('reCaptchaKey', undefined);
      setCaptchaKey((key) => key + 1);
    },
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    signIn.mutate({
      username: values.username.trim(),
      password: values.password,
      reCaptchaKey: values.captchaRequired ? values.reCaptchaKey : undefined,
    });
  });

  const passwordError =
    validationText(formState.errors.password?.message) ??
    (failure?.kind === 'wrongCredentials' ? t('apiErrors.INVALID_CREDENTIALS') : undefined);
  const captchaError =
    validationText(formState.errors.reCaptchaKey?.message) ??
    (failure?.kind === 'captchaInvalid' ? t('apiErrors.CAPTCHA_INVALID') : undefined);

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        {failure?.kind === 'refused' && (
          <Alert color="orange" variant="light" role="alert">
            {t(`apiErrors.${failure.code}`)}
          </Alert>
        )}
        {failure?.kind === 'other' && (
          <Alert color="red" variant="light" role="alert">
            {t(`apiErrors.${failure.code}`)}
          </Alert>
        )}
        <TextInput
          label={t('screens.login.email')}
          type="email"
          autoComplete="username"
          required
          {...register('username')}
          error={validationText(formState.errors.username?.message)}
        />
        <PasswordInput
          label={t('screens.login.password')}
          autoComplete="current-password"
          required
          {...register('password')}
          error={passwordError}
        />
        {captchaRequired && (
          <CaptchaField
            key={captchaKey}
            onChange={(solution) =>
              setValue('reCaptchaKey', solution ?? undefined, { shouldValidate: formState.isSubmitted })
            }
            error={captchaError}
          />
        )}
        <Group justify="space-between" wrap="wrap">
          <Anchor component="button" type="button" fz="sm" onClick={onForgotPassword}>
            {t('screens.login.forgotPassword')}
          </Anchor>
          <Button type="submit" loading={signIn.isPending}>
            {t('screens.login.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiRequestError } from '../../api/ApiRequestError';
import { setRecoveredPassword } from '../../auth/accountApi';
import { authPaths } from '../../auth/authPaths';
import { passwordGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { AuthCard } from '../../chrome/AuthCard';
import { showServerValidation } from '../../forms/serverValidation';
import { useValidationText } from '../../forms/useValidationText';
import { type NewPasswordForm, newPasswordSchema } from './newPasswordSchema';

/** Long enough to read the confirmation before the console moves on. */
export const redirectDelayMs = 2500;

/**
 * /auth/recovery/{recoveryToken}: a new password, then an automatic sign-in with it and the
 * confirmation text of spec §4 before the reload.
 */
export function RecoveryScreen() {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const token = useParams().recoveryToken ?? '';
  const completeSignIn = useCompleteSignIn();
  const { register, handleSubmit, setError, formState } = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', passConf: '' },
  });
  const change = useMutation({
    mutationFn: async ({ password }: NewPasswordForm) => {
      const { user } = await setRecoveredPassword({ password, token });
      const tokens = await passwordGrant({ username: user.email, password });
      // The confirmation stays on screen a moment before the reload.
      return () => void completeSignIn(tokens);
    },
    meta: { successMessage: false, errorMessage: false },
    onSuccess: (signIn) => setTimeout(signIn, redirectDelayMs),
    onError: (error) => showServerValidation(error, ['password'], setError),
  });
  const failure = change.error instanceof ApiRequestError ? change.error : null;

  return (
    <AuthCard
      title={t('screens.recovery.heading')}
      footer={
        <Anchor component={Link} to={authPaths.login} fw={600}>
          {t('screens.recovery.backToLogin')}
        </Anchor>
      }
    >
      {change.isSuccess ? (
        <Alert color="teal" variant="light" role="status">
          {t('screens.recovery.changed')}
        </Alert>
      ) : (
        <form onSubmit={(event) => void handleSubmit((values) => change.mutate(values))(event)} noValidate>
          <Stack gap="md">
            {failure && failure.code !== 'VALIDATION_FAILED' && (
              <Alert color="red" variant="light" role="alert">
                {failure.code === 'BAD_TOKEN' || failure.code === 'TOKEN_EXPIRED'
                  ? t('screens.verify.linkExpired')
                  : t(`apiErrors.${failure.code}`)}
              </Alert>
            )}
            <Text fz="sm" c="dimmed">
              {t('screens.recovery.intro')}
            </Text>
            <PasswordInput
              label={t('screens.recovery.password')}
              description={t('screens.register.passwordHint')}
              autoComplete="new-password"
              required
              {...register('password')}
              error={validationText(formState.errors.password?.message)}
            />
            <PasswordInput
              label={t('screens.recovery.passConf')}
              autoComplete="new-password"
              required
              {...register('passConf')}
              error={validationText(formState.errors.passConf?.message)}
            />
            <Button type="submit" loading={change.isPending} fullWidth>
              {t('screens.recovery.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

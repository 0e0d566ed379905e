import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { useValidationText } from '../../forms/useValidationText';
import { changePassword } from '../../profile/profileApi';
import { type ChangePasswordForm, changePasswordFormSchema } from './changePasswordFormSchema';

/** Spec §2 Modals: the current password, a new one and its confirmation; toasts of spec §8. */
export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const { register, handleSubmit, setError, reset, formState } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { oldPass: '', newPass: '', passConf: '' },
  });
  const change = useMutation({
    mutationFn: ({ oldPass, newPass }: ChangePasswordForm) => changePassword({ oldPass, newPass }),
    meta: { successMessage: 'toast.passwordChanged', errorMessage: 'toast.passwordChangeFailed' },
    onSuccess: () => {
      reset();
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.code === 'PASSWORD_INCORRECT') {
        setError('oldPass', { type: 'server', message: t('apiErrors.PASSWORD_INCORRECT') });
      }
    },
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('screens.changePassword.title')} centered>
      <form onSubmit={(event) => void handleSubmit((values) => change.mutate(values))(event)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t('screens.changePassword.oldPass')}
            autoComplete="current-password"
            required
            data-autofocus
            {...register('oldPass')}
            error={validationText(formState.errors.oldPass?.message)}
          />
          <PasswordInput
            label={t('screens.changePassword.newPass')}
            description={t('screens.register.passwordHint')}
            autoComplete="new-password"
            required
            {...register('newPass')}
            error={validationText(formState.errors.newPass?.message)}
          />
          <PasswordInput
            label={t('screens.changePassword.passConf')}
            autoComplete="new-password"
            required
            {...register('passConf')}
            error={validationText(formState.errors.passConf?.message)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('screens.changePassword.cancel')}
            </Button>
            <Button type="submit" loading={change.isPending}>
              {t('screens.changePassword.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

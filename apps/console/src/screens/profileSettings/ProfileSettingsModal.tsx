import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Avatar, Button, FileInput, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import type { Profile } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { profileQuery, updateProfile, uploadProfilePhoto } from '../../profile/profileApi';
import { useObjectUrl, useProfilePhotoUrl } from '../../profile/useProfilePhotoUrl';
import { useValidationText } from '../../forms/useValidationText';
import { type ProfileFormInput, type ProfileFormOutput, profileFormSchema } from './profileFormSchema';

export interface ProfileSettingsModalProps {
  profile: Profile;
  opened: boolean;
  onClose: () => void;
}

/** Spec §2 Modals: full name, e-mail and JPEG photo, each saved with its own toast (spec §8). */
export function ProfileSettingsModal({ profile, opened, onClose }: ProfileSettingsModalProps) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const queryClient = useQueryClient();
  const currentPhotoUrl = useProfilePhotoUrl(profile);
  const { register, handleSubmit, control, watch, formState } = useForm<
    ProfileFormInput,
    unknown,
    ProfileFormOutput
  >({
    resolver: zodResolver(profileFormSchema),
    values: { fullName: profile.fullName ?? '', email: profile.email, photo: null },
  });
  const previewUrl = useObjectUrl(watch('photo'));
  const onSaved = (saved: Profile) => queryClient.setQueryData(profileQuery.queryKey, saved);
  const savePhoto = useMutation({
    mutationFn: (photo: File) => uploadProfilePhoto(profile.id, photo),
    meta: { successMessage: 'toast.profilePhotoUpdated', errorMessage: 'toast.profilePhotoFailed' },
    onSuccess: onSaved,
  });
  const saveData = useMutation({
    mutationFn: updateProfile,
    meta: { successMessage: 'toast.profileDataUpdated', errorMessage: 'toast.profileDataFailed' },
    onSuccess: onSaved,
  });

  const onSubmit = handleSubmit(async ({ fullName, email, photo }) => {
    const nameChanged = fullName !== '' && fullName !== profile.fullName;
    const emailChanged = email !== profile.email;
    const saves: Promise<unknown>[] = [];
    if (photo) saves.push(savePhoto.mutateAsync(photo));
    if (nameChanged || emailChanged) {
      saves.push(
        saveData.mutateAsync({ fullName: nameChanged ? fullName : null, email: emailChanged ? email : null }),
      );
    }
    const results = await Promise.allSettled(saves);
    if (results.every((result) => result.status === 'fulfilled')) onClose();
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('screens.profileSettings.title')} centered>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <Group gap="md" wrap="nowrap">
            <Avatar
              src={previewUrl ?? currentPhotoUrl}
              size={72}
              radius="xl"
              alt={t('screens.profileSettings.photoPreview')}
            />
            <Controller
              control={control}
              name="photo"
              render={({ field }) => (
                <FileInput
                  style={{ flex: 1 }}
                  label={t('screens.profileSettings.photo')}
                  description={t('screens.profileSettings.photoHint')}
                  accept="image/jpeg"
                  clearable
                  leftSection={<IconPhoto size={16} aria-hidden />}
                  value={field.value ?? null}
                  onChange={(file) => field.onChange(file)}
                  onBlur={field.onBlur}
                  error={validationText(formState.errors.photo?.message)}
                />
              )}
            />
          </Group>
          <TextInput
            label={t('screens.profileSettings.fullName')}
            autoComplete="name"
            data-autofocus
            {...register('fullName')}
            error={validationText(formState.errors.fullName?.message)}
          />
          <TextInput
            label={t('screens.profileSettings.email')}
            type="email"
            autoComplete="email"
            required
            {...register('email')}
            error={validationText(formState.errors.email?.message)}
          />
          {profile.pendingEmail && (
            <Alert color="blue" variant="light" role="status">
              {t('screens.profileSettings.pendingEmail', { email: profile.pendingEmail })}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('screens.profileSettings.cancel')}
            </Button>
            <Button type="submit" loading={savePhoto.isPending || saveData.isPending}>
              {t('screens.profileSettings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

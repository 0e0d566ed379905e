import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconUser } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { authPaths } from '../auth/authPaths';
import { useAuthSession, useSessionUser } from '../auth/AuthSessionContext';
import { useProfile } from '../profile/useProfile';
import { useProfilePhotoUrl } from '../profile/useProfilePhotoUrl';

// Loaded when first opened: their forms (react-hook-form, file input) are no part of the first load.
const ChangePasswordModal = lazy(async () => ({
  default: (await import('../screens/changePassword/ChangePasswordModal')).ChangePasswordModal,
}));
const ProfileSettingsModal = lazy(async () => ({
  default: (await import('../screens/profileSettings/ProfileSettingsModal')).ProfileSettingsModal,
}));

type OpenModal = 'profile' | 'password' | null;

/** Spec §2 Chrome: the user dropdown with the e-mail, Profile, Change password and Logout. */
export function UserMenu() {
  const { t } = useTranslation();
  const session = useAuthSession();
  const navigate = useNavigate();
  const profile = useProfile().data;
  const photoUrl = useProfilePhotoUrl(profile);
  const sessionEmail = useSessionUser()?.profile.email;
  const email = profile?.email ?? sessionEmail ?? '';
  const [openModal, setOpenModal] = useState<OpenModal>(null);
  // Once opened, a modal stays mounted so that it can play its closing transition.
  const [modalsUsed, setModalsUsed] = useState(false);
  const open = (modal: OpenModal) => {
    setModalsUsed(true);
    setOpenModal(modal);
  };

  const logout = async () => {
    await session.logout();
    await navigate(authPaths.login, { replace: true });
  };

  return (
    <>
      <Menu position="bottom-end" width={240} withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t('chrome.userMenu.open', { email })}>
            <Group gap={6} wrap="nowrap">
              <Avatar src={photoUrl} size={32} radius="xl" alt="" />
              <Text fz="sm" fw={500} visibleFrom="md" maw={200} truncate>
                {email}
              </Text>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text fz="sm" c="dark" truncate data-testid="user-menu-email">
              {email}
            </Text>
          </Menu.Label>
          <Menu.Item leftSection={<IconUser size={16} aria-hidden />} onClick={() => open('profile')}>
            {t('chrome.userMenu.profile')}
          </Menu.Item>
          <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={() => open('password')}>
            {t('chrome.userMenu.changePassword')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item
            color="red"
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={() => void logout()}
          >
            {t('chrome.userMenu.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {modalsUsed && (
        <Suspense fallback={null}>
          {profile && (
            <ProfileSettingsModal
              profile={profile}
              opened={openModal === 'profile'}
              onClose={() => setOpenModal(null)}
            />
          )}
          <ChangePasswordModal opened={openModal === 'password'} onClose={() => setOpenModal(null)} />
        </Suspense>
      )}
    </>
  );
}

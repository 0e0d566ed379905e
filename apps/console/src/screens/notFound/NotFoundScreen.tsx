import { Button, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { homePath } from '../../app/paths';

/** Any unknown path. "Go back" returns to the previous page, or home when there is none. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // `default` is the key of the location the app started on: nothing of ours to go back to, but the
  // tab may still hold a page before it (another site, or a full reload of one of ours).
  const canGoBack = location.key !== 'default' || window.history.length > 1;

  return (
    <Stack align="center" ta="center" gap="lg" py={{ base: 'xl', sm: 64 }}>
      <Text fz={72} fw={800} c="indigo.2" lh={1} aria-hidden>
        {t('screens.notFound.code')}
      </Text>
      <Title order={1} fz={{ base: 22, sm: 28 }}>
        {t('screens.notFound.message')}
      </Title>
      <Button
        component={Link}
        to={homePath}
        variant="light"
        leftSection={<IconArrowLeft size={18} aria-hidden />}
        onClick={(event) => {
          if (!canGoBack) return; // the link itself leads home
          event.preventDefault();
          void navigate(-1);
        }}
      >
        {t('screens.notFound.goBack')}
      </Button>
    </Stack>
  );
}

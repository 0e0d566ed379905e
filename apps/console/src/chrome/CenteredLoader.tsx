import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A wait with nothing else to show; the label is for screen readers. */
export function CenteredLoader({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-label={label ?? t('chrome.loading')}>
      <Loader />
    </Center>
  );
}

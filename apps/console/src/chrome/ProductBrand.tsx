import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconWaveSine } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { homePath } from '../app/paths';
import { useProductName } from '../runtimeConfig/useProductName';

/** Logo mark and product name, linking to the home screen. */
export function ProductBrand() {
  const { t } = useTranslation();
  const productName = useProductName();
  return (
    <UnstyledButton component={Link} to={homePath} aria-label={t('chrome.header.homeLink', { productName })}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={30} radius="md" variant="gradient" gradient={{ from: 'indigo', to: 'cyan' }}>
          <IconWaveSine size={20} aria-hidden />
        </ThemeIcon>
        <Text fw={700} fz="lg" lh={1}>
          {productName}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

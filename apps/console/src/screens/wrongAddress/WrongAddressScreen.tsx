import { Anchor, Center, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import type { WrongAddress } from '../../auth/publicAddress';

/**
 * Shown instead of the console when it was opened at another address than the server's PUBLIC_URL
 * and the server could not redirect there: which address to use, and which variable sets it.
 */
export function WrongAddressScreen({ address }: { address: WrongAddress }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" maw={640}>
        <Stack gap="md">
          <Title order={1} size="h2">
            {t('screens.wrongAddress.title')}
          </Title>
          <Text>{t('screens.wrongAddress.openedAt', { openedAt: address.openedAt })}</Text>
          <Text>
            {t('screens.wrongAddress.useInstead')}{' '}
            <Anchor href={address.publicPageUrl}>{address.publicUrl}</Anchor>
          </Text>
          <Text>
            <Trans
              i18nKey="screens.wrongAddress.operator"
              values={{ variable: 'PUBLIC_URL', example: `PUBLIC_URL=${address.openedAt}` }}
              components={{ code: <Code /> }}
            />
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}

import { Alert, Button, Card, Code, Collapse, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconEye, IconEyeOff, IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../clipboard/CopyValueButton';
import { signingSecretQuery } from './filesApi';

/**
 * How a receiver checks a webhook (Standard Webhooks): HMAC-SHA256 with the secret's key over
 * "id.timestamp.body", compared with each `v1,` signature of the header.
 */
const verificationExample = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: "whsec_…" from the console; body: the request body exactly as received (a string).
export function verifyWebhook(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false; // replayed or late
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  return headers['webhook-signature'].split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;

/** The account's webhook signing secret, hidden until asked for, with a verification example. */
export function WebhookSecretCard() {
  const { t } = useTranslation();
  const headingId = useId();
  const secret = useQuery(signingSecretQuery);
  const [revealed, setRevealed] = useState(false);
  const [exampleShown, setExampleShown] = useState(false);

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconKey size={20} aria-hidden />
          <Title order={2} fz="lg" id={headingId}>
            {t('screens.submittedFiles.secret.title')}
          </Title>
        </Group>
        <Text fz="sm">
          <Trans
            i18nKey="screens.submittedFiles.secret.intro"
            components={{ id: <Code />, timestamp: <Code />, signature: <Code /> }}
          />
        </Text>
        {secret.isPending && <Loader size="sm" aria-label={t('chrome.loading')} />}
        {secret.isError && (
          <Alert color="orange" variant="light">
            {t('screens.submittedFiles.secret.unavailable')}
          </Alert>
        )}
        {secret.data && (
          <Group gap="sm" wrap="wrap">
            <Code
              data-testid="webhook-secret"
              aria-label={t('screens.submittedFiles.secret.label')}
              style={{ wordBreak: 'break-all' }}
            >
              {revealed ? secret.data.secret : `whsec_${'•'.repeat(24)}`}
            </Code>
            <Button
              size="xs"
              variant="subtle"
              leftSection={
                revealed ? <IconEyeOff size={14} aria-hidden /> : <IconEye size={14} aria-hidden />
              }
              onClick={() => setRevealed((shown) => !shown)}
            >
              {revealed ? t('screens.submittedFiles.secret.hide') : t('screens.submittedFiles.secret.show')}
            </Button>
            <CopyValueButton value={secret.data.secret} label={t('screens.submittedFiles.secret.copy')} />
          </Group>
        )}
        <div>
          <Button
            size="xs"
            variant="light"
            aria-expanded={exampleShown}
            onClick={() => setExampleShown((shown) => !shown)}
          >
            {exampleShown
              ? t('screens.submittedFiles.secret.hideExample')
              : t('screens.submittedFiles.secret.showExample')}
          </Button>
        </div>
        <Collapse in={exampleShown}>
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text fz="sm" fw={600}>
                {t('screens.submittedFiles.secret.exampleTitle')}
              </Text>
              <CopyValueButton
                value={verificationExample}
                label={t('screens.submittedFiles.secret.copyExample')}
              />
            </Group>
            <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
              {verificationExample}
            </Code>
          </Stack>
        </Collapse>
      </Stack>
    </Card>
  );
}

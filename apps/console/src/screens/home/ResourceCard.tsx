import { Anchor, Card, Group, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowUpRight, type Icon } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface ResourceCardProps {
  icon: Icon;
  title: string;
  text: string;
  linkLabel: string;
  href: string;
}

/** A card pointing to a page outside the console (documentation, API reference), in a new tab. */
export function ResourceCard({ icon: ResourceIcon, title, text, linkLabel, href }: ResourceCardProps) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId} h="100%">
      <ThemeIcon size={40} radius="md" variant="light" mb="md">
        <ResourceIcon size={22} stroke={1.6} aria-hidden />
      </ThemeIcon>
      <Title order={2} fz="lg" id={headingId} mb={6}>
        {title}
      </Title>
      <Text fz="sm" c="dimmed" mb="md">
        {text}
      </Text>
      <Anchor href={href} target="_blank" rel="noopener noreferrer" fz="sm" fw={600} mt="auto">
        <Group gap={4} component="span" wrap="nowrap">
          {linkLabel}
          <IconArrowUpRight size={16} aria-hidden />
        </Group>
        <VisuallyHidden> {t('chrome.opensInNewTab')}</VisuallyHidden>
      </Anchor>
    </Card>
  );
}

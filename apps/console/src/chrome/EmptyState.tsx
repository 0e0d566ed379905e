import { Stack, Text } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** Drawn large and hidden from screen readers: the title says it. */
  icon: Icon;
  title: string;
  text: ReactNode;
}

/** What a list says when it has nothing yet: an icon, a title and a line on how to add something. */
export function EmptyState({ icon: EmptyIcon, title, text }: EmptyStateProps) {
  return (
    <Stack align="center" gap={6} py="lg">
      <EmptyIcon size={32} stroke={1.4} aria-hidden />
      <Text fw={600}>{title}</Text>
      <Text fz="sm" c="dimmed" ta="center">
        {text}
      </Text>
    </Stack>
  );
}

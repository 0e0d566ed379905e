import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface AuthCardProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  /** Under the card: links to the other sign-in screens. */
  footer?: ReactNode;
}

/** The frame of the sign-in screens: a narrow card, full width on a phone. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <Stack maw={440} mx="auto" w="100%" py={{ base: 'md', sm: 'xl' }} gap="md">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} shadow="xs">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" fz="sm">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
      {footer && (
        <Text ta="center" fz="sm">
          {footer}
        </Text>
      )}
    </Stack>
  );
}

import { Button, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Spec §9: "Copied" shows for 500 ms after a copy. */
export const copyFeedbackMs = 500;

export interface CopyValueButtonProps {
  value: string;
  /** What the button says before copying, e.g. "Copy key". */
  label: string;
  size?: 'xs' | 'sm';
}

/** Copies `value` to the clipboard; says Copied, or shows why copying failed (spec §8). */
export function CopyValueButton({ value, label, size = 'xs' }: CopyValueButtonProps) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: copyFeedbackMs });
  return (
    <>
      <Button
        size={size}
        variant={clipboard.copied ? 'filled' : 'light'}
        color={clipboard.copied ? 'teal' : undefined}
        leftSection={
          clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />
        }
        onClick={() => {
          clipboard.reset();
          clipboard.copy(value);
        }}
      >
        {clipboard.copied ? t('clipboard.copied') : label}
      </Button>
      {clipboard.error && (
        <Text c="red" fz="xs" role="alert">
          {t('clipboard.failed', { reason: clipboard.error.message })}
        </Text>
      )}
    </>
  );
}

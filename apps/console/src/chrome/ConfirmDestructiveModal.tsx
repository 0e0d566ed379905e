import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmDestructiveModalProps {
  opened: boolean;
  title: string;
  /** What is about to happen, naming the thing it happens to. */
  question: ReactNode;
  /** Why it matters (it cannot be undone, what else goes with it). */
  consequence: string;
  cancelLabel: string;
  confirmLabel: string;
  /** The action is under way: the confirm button shows it and cannot be pressed again. */
  confirming: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A confirmation before something that cannot be undone (delete, revoke, disconnect). */
export function ConfirmDestructiveModal({
  opened,
  title,
  question,
  consequence,
  cancelLabel,
  confirmLabel,
  confirming,
  onConfirm,
  onClose,
}: ConfirmDestructiveModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {opened && (
        <Stack gap="md">
          <Text>{question}</Text>
          <Text fz="sm" c="dimmed">
            {consequence}
          </Text>
          <Group justify="flex-end">
            {/* Focus starts on Cancel: Enter must not confirm by accident. */}
            <Button variant="default" onClick={onClose} data-autofocus>
              {cancelLabel}
            </Button>
            <Button color="red" loading={confirming} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

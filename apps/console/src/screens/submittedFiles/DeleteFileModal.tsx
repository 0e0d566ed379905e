import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { SubmittedFile } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteFile, filesQueryKey } from './filesApi';

/** Deletion confirmation: the recording and its transcript go for good. */
export function DeleteFileModal({ file, onClose }: { file: SubmittedFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: deleteFile,
    meta: { successMessage: 'toast.fileDeleted', errorMessage: 'toast.fileDeletionFailed' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: filesQueryKey });
      onClose();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };

  return (
    <Modal opened={file !== null} onClose={close} title={t('screens.submittedFiles.delete.title')} centered>
      {file && (
        <Stack gap="md">
          <Text>
            {t('screens.submittedFiles.delete.question')} <Code>{file.fileName}</Code> (<Code>{file.id}</Code>
            )
          </Text>
          <Text fz="sm" c="dimmed">
            {t('screens.submittedFiles.delete.consequence')}
          </Text>
          <Group justify="flex-end">
            {/* Focus starts on Cancel: Enter must not delete a file by accident. */}
            <Button variant="default" onClick={close} data-autofocus>
              {t('screens.submittedFiles.delete.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(file.id)}>
              {t('screens.submittedFiles.delete.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

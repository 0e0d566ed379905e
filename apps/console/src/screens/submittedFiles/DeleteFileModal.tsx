import { Code } from '@mantine/core';
import type { SubmittedFile } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDestructiveModal } from '../../chrome/ConfirmDestructiveModal';
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
    <ConfirmDestructiveModal
      opened={file !== null}
      title={t('screens.submittedFiles.delete.title')}
      question={
        file && (
          <>
            {t('screens.submittedFiles.delete.question')} <Code>{file.fileName}</Code> (<Code>{file.id}</Code>
            )
          </>
        )
      }
      consequence={t('screens.submittedFiles.delete.consequence')}
      cancelLabel={t('screens.submittedFiles.delete.cancel')}
      confirmLabel={t('screens.submittedFiles.delete.confirm')}
      confirming={remove.isPending}
      onConfirm={() => file && remove.mutate(file.id)}
      onClose={close}
    />
  );
}

import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconFileText, IconPlugConnected, IconTrash, IconWebhook } from '@tabler/icons-react';
import type { SubmittedFile } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { transcriptPath } from '../../app/paths';
import { DownloadFormatItems, useTranscriptDownload } from './TranscriptDownloads';

export interface FileActionHandlers {
  onDelete: (file: SubmittedFile) => void;
  onShowWebhook: (file: SubmittedFile) => void;
  /** Send to CRM (integrations), offered on done transcripts. */
  onSendToCrm?: (file: SubmittedFile) => void;
}

/** The actions menu of one file, in a table row or a phone card: open, download, send, webhook, delete. */
export function FileActions({
  file,
  onDelete,
  onShowWebhook,
  onSendToCrm,
}: { file: SubmittedFile } & FileActionHandlers) {
  const { t } = useTranslation();
  const download = useTranscriptDownload(file);
  const label = t('screens.submittedFiles.actionsFor', { id: file.id });
  const done = file.transcriptStatus === 'done';
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={label} title={label} loading={download.isPending}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          component={Link}
          to={transcriptPath(file.id)}
          leftSection={<IconFileText size={16} aria-hidden />}
        >
          {t('screens.submittedFiles.openTranscript')}
        </Menu.Item>
        <Menu.Divider />
        <DownloadFormatItems file={file} onDownload={download.mutate} />
        {onSendToCrm && (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconPlugConnected size={16} aria-hidden />}
              disabled={!done}
              onClick={() => onSendToCrm(file)}
            >
              {t('screens.integrations.send.action')}
            </Menu.Item>
          </>
        )}
        {file.callbackUrl && (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconWebhook size={16} aria-hidden />}
              onClick={() => onShowWebhook(file)}
            >
              {t('screens.submittedFiles.webhookDeliveries')}
            </Menu.Item>
          </>
        )}
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => onDelete(file)}
        >
          {t('screens.submittedFiles.deleteAction')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

import { Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { type DownloadFormat, downloadFormats, type SubmittedFile } from '@verbatim/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadTranscript } from './filesApi';

const formats = Object.keys(downloadFormats) as DownloadFormat[];

/** Saves the file's transcript in a format; a failure says so in a toast. */
export function useTranscriptDownload(file: SubmittedFile) {
  return useMutation({
    mutationFn: (format: DownloadFormat) => downloadTranscript(file, format),
    meta: { successMessage: false, errorMessage: 'screens.submittedFiles.downloadFailed' },
  });
}

/** A menu's "Download transcript" section: one item per format, offered once the transcript is done. */
export function DownloadFormatItems({
  file,
  onDownload,
}: {
  file: SubmittedFile;
  onDownload: (format: DownloadFormat) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Menu.Label>{t('screens.submittedFiles.download')}</Menu.Label>
      {formats.map((format) => (
        <Menu.Item
          key={format}
          leftSection={<IconDownload size={16} aria-hidden />}
          disabled={file.transcriptStatus !== 'done'}
          onClick={() => onDownload(format)}
        >
          {t(`screens.submittedFiles.formats.${downloadFormats[format]}`)}
        </Menu.Item>
      ))}
    </>
  );
}

import { Anchor, Code, Stack, Text } from '@mantine/core';
import type { SubmittedFile } from '@verbatim/contracts';
import { Link } from 'react-router';
import { transcriptPath } from '../../app/paths';
import { formatDuration } from '../../format/dateTime';

/** `en`, or `auto → fr` when the language was detected. */
export function languageOf(file: SubmittedFile): string {
  return file.detectedLanguage && file.detectedLanguage !== file.languageCode
    ? `${file.languageCode} → ${file.detectedLanguage}`
    : file.languageCode;
}

export function durationOf(file: SubmittedFile): string {
  return file.duration === null ? '-' : formatDuration(file.duration);
}

/** The file's id, a link to its transcript page, over the recording's name. */
export function FileIdentity({ file, nameWidth }: { file: SubmittedFile; nameWidth?: number }) {
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={transcriptPath(file.id)} fz="sm" style={{ wordBreak: 'break-all' }}>
        <Code c="inherit" bg="transparent" p={0} fz="sm">
          {file.id}
        </Code>
      </Anchor>
      <Text fz="xs" c="dimmed" lineClamp={1} maw={nameWidth} title={file.fileName}>
        {file.fileName}
      </Text>
    </Stack>
  );
}

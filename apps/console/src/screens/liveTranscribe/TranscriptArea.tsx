import { Textarea } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { followsNewText } from './autoScroll';

/** Spec §9: the transcript area is 10 rows high. */
const transcriptRows = 10;

/**
 * The read-only transcript (spec §2): scrolls to the bottom as text arrives, unless the user has
 * scrolled up by more than 80 px to read.
 */
export function TranscriptArea({ label, text }: { label: string; text: string }) {
  const { t } = useTranslation();
  const area = useRef<HTMLTextAreaElement>(null);
  // Decided where the user left the view, before the new text changes its height.
  const following = useRef(true);

  useLayoutEffect(() => {
    const element = area.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [text]);

  return (
    <Textarea
      ref={area}
      label={label}
      placeholder={t('screens.liveTranscribe.transcriptPlaceholder')}
      value={text}
      readOnly
      rows={transcriptRows}
      onScroll={(event) => {
        following.current = followsNewText(event.currentTarget);
      }}
    />
  );
}

import { Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { TranscriptSpeaker } from '@verbatim/contracts';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './TranscriptView.module.css';
import { formatTimestamp, lowConfidenceThreshold, type PageTurn, speakerNameOf } from './transcriptTurns';

const speakerColors = ['blue', 'grape', 'teal', 'orange', 'pink', 'cyan', 'lime', 'indigo', 'red', 'yellow'];

/** A speaker's colour, the same in every turn: from its number (S1 → the first colour). */
export function speakerColor(id: string): string {
  const number = Number(id.slice(1)) || 1;
  return speakerColors[(number - 1) % speakerColors.length] ?? 'gray';
}

export interface TranscriptTurnsProps {
  turns: readonly PageTurn[];
  speakers: TranscriptSpeaker[] | undefined;
  activeWord: number;
  /** Scroll the word being played into view (while the recording plays). */
  follow: boolean;
  onSeek: (seconds: number) => void;
}

/**
 * The transcript as speaker turns (or segments): a turn's time plays it from its start, a click on
 * a word plays from that word; the word being played is lit and kept in view.
 */
export function TranscriptTurns({ turns, speakers, activeWord, follow, onSeek }: TranscriptTurnsProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!follow || activeWord < 0) return;
    const word = container.current?.querySelector<HTMLElement>(`[data-word="${activeWord}"]`);
    if (!word) return;
    const box = word.getBoundingClientRect();
    // Only when it left the view: reading ahead is not interrupted while the word is on screen.
    if (box.top < 140 || box.bottom > window.innerHeight - 20)
      word.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [activeWord, follow]);

  return (
    <Stack
      ref={container}
      gap="md"
      role="region"
      aria-label={t('screens.transcript.transcriptLabel')}
      onClick={(event) => {
        const start = (event.target as HTMLElement).closest<HTMLElement>('[data-start]')?.dataset.start;
        if (start !== undefined) onSeek(Number(start));
      }}
    >
      {turns.map((turn, index) => (
        <Turn
          key={index}
          turn={turn}
          speakerName={turn.speaker === null ? null : speakerNameOf(speakers, turn.speaker)}
          // Only the turns holding the lit word render again when it moves.
          activeWord={
            activeWord >= (turn.words[0]?.index ?? 0) && activeWord <= (turn.words.at(-1)?.index ?? -1)
              ? activeWord
              : -1
          }
        />
      ))}
    </Stack>
  );
}

const Turn = memo(function Turn({
  turn,
  speakerName,
  activeWord,
}: {
  turn: PageTurn;
  speakerName: string | null;
  activeWord: number;
}) {
  const { t } = useTranslation();
  const time = formatTimestamp(turn.start);
  const lowTitle = (confidence: number) =>
    t('screens.transcript.lowConfidence', {
      confidence: Math.round(confidence * 100),
      threshold: Math.round(lowConfidenceThreshold * 100),
    });
  return (
    <div data-turn-start={turn.start}>
      <Group gap="xs" mb={4}>
        {turn.speaker !== null && (
          <Badge color={speakerColor(turn.speaker)} variant="light" tt="none" data-speaker={turn.speaker}>
            {speakerName}
          </Badge>
        )}
        <UnstyledButton
          data-start={turn.start}
          fz="xs"
          c="dimmed"
          aria-label={t('screens.transcript.playFrom', { time })}
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          {time}
        </UnstyledButton>
      </Group>
      <Text component="p" m={0} style={{ lineHeight: 1.7 }}>
        {turn.words.map((word) => {
          const low = word.confidence < lowConfidenceThreshold;
          return (
            <span key={word.index}>
              <span
                data-word={word.index}
                data-start={word.start}
                className={low ? `${classes.word} ${classes.low}` : classes.word}
                aria-current={word.index === activeWord ? 'true' : undefined}
                title={low ? lowTitle(word.confidence) : undefined}
              >
                {word.text}
              </span>{' '}
            </span>
          );
        })}
      </Text>
    </div>
  );
});

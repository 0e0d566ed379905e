import { type RefObject, useCallback, useEffect, useState } from 'react';
import { type PageWord, wordAt } from './transcriptTurns';

/**
 * Follows an `<audio>` element: whether it plays, and the index of the word being played, checked
 * every animation frame while playing (timeupdate comes only 4 times a second, too late for
 * words) and after every seek. The index changes a few times a second, so only the words that
 * light up or go out are rendered again.
 */
export function usePlayback(audio: RefObject<HTMLAudioElement | null>, words: readonly PageWord[]) {
  const [playing, setPlaying] = useState(false);
  const [activeWord, setActiveWord] = useState(-1);

  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    let frame = 0;
    const update = () => setActiveWord(wordAt(words, element.currentTime));
    const tick = () => {
      update();
      frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      setPlaying(true);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onPause = () => {
      setPlaying(false);
      cancelAnimationFrame(frame);
      update();
    };
    element.addEventListener('play', onPlay);
    element.addEventListener('pause', onPause);
    element.addEventListener('ended', onPause);
    element.addEventListener('seeked', update);
    element.addEventListener('timeupdate', update);
    if (!element.paused) onPlay();
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('play', onPlay);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('ended', onPause);
      element.removeEventListener('seeked', update);
      element.removeEventListener('timeupdate', update);
    };
  }, [audio, words]);

  /** Plays from `seconds` (a word's or a turn's start). */
  const playFrom = useCallback(
    (seconds: number) => {
      const element = audio.current;
      if (!element) return;
      element.currentTime = seconds;
      setActiveWord(wordAt(words, seconds));
      element.play().catch(() => undefined); // refused without a user gesture: the seek still holds
    },
    [audio, words],
  );

  const togglePlay = useCallback(() => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) element.play().catch(() => undefined);
    else element.pause();
  }, [audio]);

  return { playing, activeWord, playFrom, togglePlay };
}

/** Where space types or presses something itself: a text field, a button, a link, the player. */
export function spaceBelongsTo(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.closest(
      'input, textarea, select, button, a[href], audio, video, [role="button"], [role="menuitem"]',
    ) !== null
  );
}

/** Space plays and pauses the recording wherever else the focus is. */
export function useSpaceToPlay(togglePlay: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== ' ' || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
      if (spaceBelongsTo(event.target)) return;
      event.preventDefault(); // no page scroll
      togglePlay();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [togglePlay]);
}

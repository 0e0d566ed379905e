/** Spec §2, §9: the transcript follows new text unless the user scrolled up by more than 80 px. */
export const autoScrollThresholdPx = 80;

/** True when the view is close enough to the bottom to keep following new text. */
export function followsNewText(
  { scrollTop, scrollHeight, clientHeight }: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>,
  threshold = autoScrollThresholdPx,
): boolean {
  return scrollHeight - scrollTop - clientHeight <= threshold;
}

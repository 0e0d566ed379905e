import { describe, expect, it } from 'vitest';
import en from './en.json';
import fr from './fr.json';

/** Dotted paths of every string, with plural suffixes folded (French has a `_many` form). */
function keysOf(tree: object, prefix = ''): Set<string> {
  const keys = new Set<string>();
  for (const [name, value] of Object.entries(tree) as [string, unknown][]) {
    const path = `${prefix}${name.replace(/_(zero|one|two|few|many|other)$/, '')}`;
    if (typeof value === 'object' && value !== null) {
      for (const key of keysOf(value, `${path}.`)) keys.add(key);
    } else {
      keys.add(path);
    }
  }
  return keys;
}

describe('translation files', () => {
  it('translate the same keys in English and French', () => {
    expect([...keysOf(fr)].sort()).toEqual([...keysOf(en)].sort());
  });

  it('have no empty string', () => {
    const empty = (tree: object): boolean =>
      (Object.values(tree) as unknown[]).some((value) =>
        typeof value === 'object' && value !== null ? empty(value) : value === '',
      );
    expect(empty(en)).toBe(false);
    expect(empty(fr)).toBe(false);
  });

  it('carry the spec wording of the error screens', () => {
    expect(en.screens.generalError.message).toBe(
      'General error! Something went wrong, please try again later or contact us',
    );
    expect(en.screens.notFound.message).toBe("We couldn't find the page you were looking for");
    expect(en.screens.notFound.goBack).toBe('Go back');
    expect(en.screens.generalError.goHome).toBe('Go Home');
  });
});

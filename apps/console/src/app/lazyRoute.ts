import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/**
 * A route whose component is loaded the first time the route matches, so that the first load
 * carries only what every visit needs. The router loads the modules of all matched routes (the
 * layout and the screen) at once, and keeps showing the current screen while a navigation loads
 * the next one.
 */
export function lazyRoute<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] }) };
}

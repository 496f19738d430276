import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's HTML and while the browser hydrates it; true once
 * this section's handlers are attached. Before then a click on Send message
 * would submit the form natively (the page would reload with what was typed
 * in its address, and lose it), and typing would not reach the form's state:
 * so the fields are read-only and the button disabled until then.
 */
export function useInteractive(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

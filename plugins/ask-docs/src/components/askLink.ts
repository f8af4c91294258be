/**
 * Router state of the plugin's own links to the Ask the docs page that ask their `?q=` question
 * on arrival. A URL cannot carry it: only a navigation inside the app sets location.state, so a
 * link posted elsewhere fills the question box and waits for the user's click.
 */
export const ASK_ON_ARRIVAL = { askDocsAsk: true } as const;

/** Whether the navigation came from a link made with ASK_ON_ARRIVAL. */
export function asksOnArrival(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as { askDocsAsk?: unknown }).askDocsAsk === true
  );
}

/** The state without the flag, so that a reload or Back does not ask again. */
export function withoutAskOnArrival(state: unknown): unknown {
  if (!asksOnArrival(state)) return state;
  const rest = { ...(state as Record<string, unknown>) };
  delete rest.askDocsAsk;
  return Object.keys(rest).length ? rest : null;
}

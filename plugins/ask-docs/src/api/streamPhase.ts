import type { AskStreamEvent } from '@askdocs/plugin-ask-docs-common';

/** The phases of a `status` stream event that the UI has a text for (askState.<phase>). */
export type StreamPhase = Extract<AskStreamEvent, { type: 'status' }>['phase'];

const KNOWN_PHASES: ReadonlySet<unknown> = new Set<StreamPhase>([
  'retrieving',
  'generating',
]);

export function isKnownPhase(phase: unknown): phase is StreamPhase {
  return KNOWN_PHASES.has(phase);
}

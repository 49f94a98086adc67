// What a compaction marker lists under "Kept" (docs/architecture.md, "What the user said"): the
// user's messages and pinned messages it kept word for word, then its ledger lines; for a compaction
// written before, the classifier sentences it kept. Pure.
import { constraintsFromDetails, type KeptConstraintKind } from './constraints';
import { userWordsFromDetails } from './user-words';

export interface KeptWordsView {
  entryId: string;
  kind: 'said' | 'summarized' | KeptConstraintKind;
  text: string;
}

export function keptWordsView(details: unknown, fromHook: boolean | undefined): KeptWordsView[] {
  const current = isRecord(details) && isRecord(details.userWords) ? userWordsFromDetails(details, fromHook) : undefined;
  if (!current) return constraintsFromDetails(details, fromHook);
  const verbatim = current.verbatim.map((m): KeptWordsView => ({ entryId: m.entryId, kind: m.pinned ? 'pinned' : 'said', text: m.text }));
  const ledger = current.ledger.map((l): KeptWordsView => ({ entryId: l.entryIds[0] ?? '', kind: 'summarized', text: l.text }));
  return [...verbatim, ...ledger.filter((l) => l.entryId !== '')];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// pi 1.5 `context_edit` entries: they change an earlier entry's message in the context (context-edits.ts
// applies them along the path) and show nothing of their own.
import { dataKind } from './data-kind';

export const contextEditKind = dataKind();

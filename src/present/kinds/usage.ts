// pi 1.5 `usage` entries: the cost of a call that is not a reply (summaries, titles); counted in the
// session cost (entry-fields.ts `entryUsage`), nothing else of their own.
import { dataKind } from './data-kind';

export const usageKind = dataKind();

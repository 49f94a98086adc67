// oh-my-pi's `reset_boundary` (/clear): the context starts after it (context.ts's path rules); nothing
// of its own to show.
import { dataKind } from './data-kind';

export const resetBoundaryKind = dataKind();

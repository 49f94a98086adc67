// Types pi 1.5 and oh-my-pi 18 write that carry nothing Arbor uses (entries.ts RECOGNISED_FOREIGN_TYPES:
// omp's title slot, service tier, …): kept byte for byte and not reported as unknown.
import { dataKind } from './data-kind';

export const foreignKind = dataKind();

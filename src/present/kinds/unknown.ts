// A type Arbor does not know (a newer pi or omp): kept byte for byte, shown nowhere, and reported once per
// type when the session is opened (the store's 'unknown-type' load problem, for types without a kind).
import { dataKind } from './data-kind';

export const unknownKind = dataKind();

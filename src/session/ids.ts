// Entry ids: 8 lowercase hex chars like pi (first 8 of a random UUID), unique within the file.
import { randomBytes, randomUUID } from 'node:crypto';

export function generateEntryId(isTaken: (id: string) => boolean): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = randomBytes(4).toString('hex');
    if (!isTaken(id)) return id;
  }
  return randomUUID();
}

export function generateSessionId(): string {
  return randomUUID();
}

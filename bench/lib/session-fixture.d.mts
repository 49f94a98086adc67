// Types of session-fixture.mjs for the TypeScript tests that generate tree sessions with it.
export function writeTreeSession(file: string, entryCount: number, options?: { toolResultChars?: number }): Promise<{ entries: number; bytes: number; leafId: string }>;

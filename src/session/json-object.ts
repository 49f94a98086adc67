// A session line parsed as a JSON object, or undefined for anything else (garbage, arrays, scalars):
// the quick readers (catalog listing, search) skip such lines instead of failing on them.
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

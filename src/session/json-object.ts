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

/** A first line without its UTF-8 byte order mark (editors on Windows add one; it is not part of the JSON). */
export function withoutByteOrderMark(line: string): string {
  return line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
}

// What session search matches in an entry (the `Searchable` each entry type gives, src/session/entry-types.ts),
// read from the raw parsed line: search does not validate entries, so every field is checked here.

export type SearchHitKind =
  | 'user'
  | 'assistant'
  | 'toolResult'
  | 'bash'
  | 'custom'
  | 'compaction'
  | 'branchSummary'
  | 'label'
  | 'sessionName';

export interface Searchable {
  kind: SearchHitKind;
  text: string;
  /** the entry to show instead of the matching one (labels) */
  entryId?: string;
  toolName?: string;
}

/** Tool-call arguments as their values only (no keys, quotes or braces). */
export function argumentText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (!value || typeof value !== 'object' || depth > 8) return '';
  const values = Array.isArray(value) ? value : Object.values(value);
  return join(values.map((v) => argumentText(v, depth + 1)), ' ');
}

/** Text blocks only: images (base64) are never searched. */
export function searchContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as Record<string, unknown>[]) {
    if (block && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
  }
  return join(parts);
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function join(parts: readonly string[], separator = '\n'): string {
  return parts.filter((p) => p !== '').join(separator);
}

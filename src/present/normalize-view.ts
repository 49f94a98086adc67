// The one normalisation between what the session loader accepts and what the UIs show. The loader checks
// only the fields an entry needs to sit in the tree (docs/reliability.md), so a block's `text` may be a
// number, usage fields strings, a count Infinity, a tool call may lack `arguments`. Every view field built
// from such loose data goes through the helpers here: a wrong type becomes a visible "unreadable" part, a
// number is clamped to a finite range, and each repair is noted so the load report can name it. Ids that
// do not fit the protocol are mapped at the webview boundary (wire-ids.ts) and noted here.
import { LIMITS } from '../protocol/messages';
import { fitsWire } from './wire-ids';

/** What was repaired while building one view; becomes the load report's 'partly-shown' message. */
export type ViewProblems = string[];

/** "a number", "an object", "missing", …: how a wrong value is named in notes and unreadable parts. */
export function typeName(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

/** The placeholder shown instead of a value of the wrong type. */
export function unreadablePart(field: string, value: unknown): string {
  return `[unreadable content: ${field} is ${typeName(value)}]`;
}

/** `value` if it is a string, else the unreadable placeholder (noted). */
export function readableText(value: unknown, field: string, problems: ViewProblems): string {
  if (typeof value === 'string') return value;
  problems.push(`${field} is ${typeName(value)}`);
  return unreadablePart(field, value);
}

/** `value` if it is a string, else undefined (noted unless absent): for optional one-line fields. */
export function optionalText(value: unknown, field: string, problems: ViewProblems): string | undefined {
  if (typeof value === 'string' || value === undefined || value === null) return typeof value === 'string' ? value : undefined;
  problems.push(`${field} is ${typeName(value)}`);
  return undefined;
}

/** A count the protocol can carry: a finite number clamped to 0…MAX_SAFE_INTEGER (else 0, noted). */
export function finiteCount(value: unknown, field: string, problems: ViewProblems): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.floor(value)));
  problems.push(`${field} is ${typeof value === 'number' ? String(value) : typeName(value)}`);
  return typeof value === 'number' && value === Infinity ? Number.MAX_SAFE_INTEGER : 0;
}

/** A cost in USD the protocol can carry (0…1e9); same rules as finiteCount. */
export function finiteCost(value: unknown, field: string, problems: ViewProblems): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.min(1e9, Math.max(0, value));
  problems.push(`${field} is ${typeof value === 'number' ? String(value) : typeName(value)}`);
  return 0;
}

/** A tool call's arguments: a plain object, else {} (noted). */
export function toolArguments(value: unknown, problems: ViewProblems): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  problems.push(`tool call arguments are ${typeName(value)}`);
  return {};
}

/** A tool call id as a string; an empty, overlong or non-string one is noted (the wire maps it). */
export function toolCallIdText(value: unknown, problems: ViewProblems): string {
  const id = typeof value === 'string' ? value : '';
  if (!fitsWire(id)) problems.push(`tool call id is ${describeId(value)}`);
  return id;
}

/** Notes an entry id the protocol cannot carry as is (the wire maps it to a short stable id). */
export function noteEntryId(id: string, problems: ViewProblems): void {
  if (!fitsWire(id)) problems.push(`entry id is ${describeId(id)}`);
}

function describeId(value: unknown): string {
  if (typeof value !== 'string') return typeName(value);
  if (value.length === 0) return 'empty';
  if (value.length > LIMITS.id) return `${value.length} characters long`;
  return 'reserved (arbor-id: prefix)';
}

export interface UsageView {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: number;
}

/** A reply's usage with every figure a finite number; absent fields count 0 silently (older files). */
export function usageView(usage: unknown, problems: ViewProblems): UsageView | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const count = (field: string) => (record[field] === undefined ? 0 : finiteCount(record[field], `usage.${field}`, problems));
  const cost = record.cost as Record<string, unknown> | undefined;
  const total = typeof cost === 'object' && cost !== null && cost.total !== undefined ? finiteCost(cost.total, 'usage.cost.total', problems) : 0;
  return { input: count('input'), output: count('output'), cacheRead: count('cacheRead'), cacheWrite: count('cacheWrite'), totalTokens: count('totalTokens'), cost: total };
}

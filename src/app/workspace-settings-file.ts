// Finds the user-only `arbor.*` settings a workspace's own settings file tries to set. VS Code drops a
// machine-scoped value from the workspace layer before any extension sees it, so the reader
// (settings-read.ts) cannot name it; the host reads `.vscode/settings.json` (and a `.code-workspace`
// file's `settings`) with this to warn once that the value is ignored (docs/reliability.md, threat
// model). JSON with comments and trailing commas, as VS Code writes it; anything unreadable finds nothing.
import { parseJsonc } from '../core/jsonc';
import { MACHINE_SCOPED_SETTINGS } from './settings-read';

/** The machine-scoped settings named in a settings file's text (`settingsKey`: "settings" for a .code-workspace). */
export function machineSettingsIn(text: string, settingsKey?: string): string[] {
  const parsed = parseJsonc(text);
  const root = settingsKey === undefined ? parsed : isObject(parsed) ? parsed[settingsKey] : undefined;
  if (!isObject(root)) return [];
  const named = new Set(flattenKeys(root));
  return MACHINE_SCOPED_SETTINGS.filter((setting) => named.has(setting));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Dotted names of every value (`{"arbor": {"tools": {"approval": …}}}` names `arbor.tools.approval` too). */
function flattenKeys(value: Record<string, unknown>, prefix = '', depth = 0): string[] {
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    out.push(name);
    if (isObject(inner) && depth < 4) out.push(...flattenKeys(inner, name, depth + 1));
  }
  return out;
}


// Prompts are Markdown templates under `prompts/`, shipped beside `dist/` in the extension. They are
// read from disk (cached) so that editing a prompt never means touching code.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let promptRoot: string | undefined;
const cache = new Map<string, string>();

/** Overrides where templates are read from (the extension passes its install folder). */
export function setPromptRoot(dir: string): void {
  promptRoot = dir;
  cache.clear();
}

/** Walks up from this module until a `prompts/` folder is found: works from src/ (tests) and dist/. */
function findPromptRoot(): string {
  let dir = __dirname;
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, 'prompts');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`Arbor prompts folder not found above ${__dirname}`);
}

/** Raw template text, e.g. `loadTemplate('compaction/summary')` reads prompts/compaction/summary.md. */
export function loadTemplate(name: string): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  promptRoot ??= findPromptRoot();
  const text = readFileSync(join(promptRoot, `${name}.md`), 'utf8');
  cache.set(name, text);
  return text;
}

/**
 * Fills `{{key}}` placeholders. A placeholder without a value is an error, so a renamed variable
 * cannot silently leave template syntax in what the model sees.
 */
export function renderTemplate(template: string, vars: Record<string, string> = {}): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_match, key: string) => {
    const value = vars[key];
    if (value === undefined) throw new Error(`prompt template variable "${key}" has no value`);
    return value;
  });
}

export function renderPrompt(name: string, vars: Record<string, string> = {}): string {
  return renderTemplate(loadTemplate(name), vars);
}

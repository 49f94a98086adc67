// The offline demo model's "brain": a deterministic function from an OpenAI Chat Completions request
// to a reply (Markdown text and/or tool calls). No AI involved; it recognises a few phrasings so the
// agent's tools, multi-turn tool loops and summaries can be tried without a key.

import { bullets, demoRecap, demoSummary, demoTurnPrefix, oneLine } from './summary';

export { demoSummary };

export interface DemoToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface DemoReply {
  text: string;
  toolCalls: DemoToolCall[];
}

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

export interface DemoRequest {
  messages?: WireMessage[];
  tools?: { function?: { name?: string } }[];
}

export const DEMO_LABEL = '*Arbor Demo (offline): a scripted stand-in for a real model. Configure a provider to get real answers.*';

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text ?? '') : '')).join('');
  return '';
}

function isImagePart(part: unknown): boolean {
  return typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'image_url';
}

/** image_url parts of a wire message's content */
export function imageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter(isImagePart).length : 0;
}

/** the content without its images' data (the server counts images at a fixed estimate instead) */
export function withoutImageData(content: unknown): unknown {
  return Array.isArray(content) ? content.filter((part) => !isImagePart(part)) : (content ?? '');
}

const FILE = /[`"']?((?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8})[`"']?/;

function firstFile(s: string): string | undefined {
  return FILE.exec(s)?.[1];
}

function quoted(s: string): string[] {
  return [...s.matchAll(/"([^"]*)"|`([^`]*)`|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** Tool calls derived from the user's words, if the request offers the matching tools. */
export function intentFor(prompt: string, available: ReadonlySet<string>): DemoToolCall | undefined {
  const p = prompt.trim();
  const has = (name: string) => available.has(name);
  let m: RegExpExecArray | null;
  if (has('bash') && (m = /^(?:please\s+)?(?:run|execute)\s+(?:`([^`]+)`|(.+))$/i.exec(p))) {
    return { name: 'bash', arguments: { command: (m[1] ?? m[2] ?? '').trim() } };
  }
  const append = appendIntent(p);
  if (append && has('read') && has('edit')) return { name: 'read', arguments: { path: append.path } };
  if (has('write') && /\b(create|write|make|add)\b/i.test(p) && firstFile(p)) {
    const path = firstFile(p)!;
    const content = /\b(?:with|containing|saying|that says)\s+(?:the\s+)?(?:content|text)?\s*:?\s*([\s\S]+)$/i.exec(p)?.[1]?.trim();
    const unquoted = content?.replace(/^["'`]|["'`]$/g, '');
    return { name: 'write', arguments: { path, content: (unquoted ?? `Hello from Arbor Demo.`) + '\n' } };
  }
  if (has('edit') && /\b(edit|change|replace|rename)\b/i.test(p) && firstFile(p.replace(/"[^"]*"|`[^`]*`/g, ''))) {
    const q = quoted(p);
    if (q.length >= 2) return { name: 'edit', arguments: { path: firstFile(p.replace(/"[^"]*"|`[^`]*`/g, ''))!, oldText: q[0], newText: q[1] } };
  }
  if (has('grep') && (m = /\b(?:grep|search)\b(?:\s+for)?\s+(?:"([^"]+)"|`([^`]+)`|(\S+))(?:\s+in\s+(\S+))?/i.exec(p))) {
    return { name: 'grep', arguments: { pattern: m[1] ?? m[2] ?? m[3], ...(m[4] ? { path: m[4] } : {}) } };
  }
  if (has('find') && (m = /\bfind\b\s+(?:files?\s+)?(?:named\s+|matching\s+)?["`]?([\w*?./-]+)["`]?(?:\s+in\s+(\S+))?/i.exec(p))) {
    return { name: 'find', arguments: { pattern: m[1], ...(m[2] ? { path: m[2] } : {}) } };
  }
  if (has('ls') && /\b(list|show)\b.*\b(files?|folders?|directory|dir)\b|^ls\b/i.test(p)) {
    const dir = /\bin\s+([\w./-]+)/i.exec(p)?.[1];
    return { name: 'ls', arguments: dir ? { path: dir } : {} };
  }
  if (has('read') && /\b(read|open|show|cat|look at|view)\b/i.test(p) && firstFile(p)) {
    return { name: 'read', arguments: { path: firstFile(p)! } };
  }
  return undefined;
}

/** "add/append <text> to <file>": the demo must never overwrite an existing file for this. */
export function appendIntent(prompt: string): { path: string; text: string } | undefined {
  const m = /\b(?:add|append)\b\s+(?:a\s+line\s+|the\s+line\s+|the\s+text\s+)?([\s\S]+?)\s+(?:to|at the end of|to the end of)\s+[`"']?((?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8})[`"']?\s*\.?$/i.exec(prompt.trim());
  if (!m || /^(?:a\s+)?(?:new\s+)?file\b/i.test(m[1]!)) return undefined;
  const text = m[1]!.trim().replace(/^["'`]|["'`]$/g, '');
  return text ? { path: m[2]!, text } : undefined;
}

/** The file text from a `read` result (lines numbered "   12\tcontent"), without the numbering. */
function linesOfReadResult(result: string): string[] {
  const lines: string[] = [];
  for (const line of result.split('\n')) {
    const m = /^\s*\d+\t(.*)$/.exec(line);
    if (m) lines.push(m[1]!);
  }
  return lines;
}

/**
 * Second step of an append: an `edit` that replaces the file's last lines with themselves plus the new
 * line. Enough trailing lines are taken for the old text to occur exactly once, as `edit` requires.
 */
export function appendEdit(path: string, addition: string, readResult: string): DemoToolCall | undefined {
  const lines = linesOfReadResult(readResult);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length === 0) return undefined;
  const content = lines.join('\n');
  for (let take = 1; take <= lines.length; take++) {
    const oldText = lines.slice(-take).join('\n');
    if (content.indexOf(oldText) === content.lastIndexOf(oldText)) {
      return { name: 'edit', arguments: { path, oldText, newText: `${oldText}\n${addition}` } };
    }
  }
  return undefined;
}

function intro(call: DemoToolCall): string {
  const a = call.arguments;
  switch (call.name) {
    case 'read': return `I'll read \`${String(a.path)}\`.`;
    case 'write': return `I'll create \`${String(a.path)}\`.`;
    case 'edit': return `I'll edit \`${String(a.path)}\`.`;
    case 'ls': return `I'll list the files${a.path ? ` in \`${String(a.path)}\`` : ''}.`;
    case 'find': return `I'll look for files matching \`${String(a.pattern)}\`.`;
    case 'grep': return `I'll search for \`${String(a.pattern)}\`.`;
    case 'bash': return `I'll run \`${String(a.command)}\`.`;
    default: return `I'll use ${call.name}.`;
  }
}

function excerpt(s: string, lines = 8): string {
  const all = s.split('\n');
  const head = all.slice(0, lines).join('\n');
  return all.length > lines ? `${head}\n… (${all.length - lines} more lines)` : head;
}

function summarizeToolResults(messages: WireMessage[]): string {
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) results.unshift(text(messages[i]!.content));
  const callMsg = [...messages].reverse().find((m) => m.role === 'assistant' && m.tool_calls?.length);
  const names = (callMsg?.tool_calls ?? []).map((c) => c.function?.name ?? 'tool');
  const parts = results.map((r, i) => {
    const failed = /^(error|Error)\b|not found|ENOENT|No such file/.test(r);
    return `**${names[i] ?? 'tool'}** ${failed ? 'reported a problem' : 'returned'}:\n\n\`\`\`\n${excerpt(r.trim() || '(no output)')}\n\`\`\``;
  });
  return `Here is what I found:\n\n${parts.join('\n\n')}\n\nThat's all for this step. (Demo model: replies are scripted.)`;
}

function isSummaryRequest(system: string, user: string): boolean {
  return /<conversation>/.test(user) || (/summar/i.test(system) && /summar|checkpoint/i.test(system + user));
}

/** Which summary the request asks for: a recap, the first part of a split turn, or a checkpoint. */
function summaryReply(userText: string): string {
  if (/Write a recap/.test(userText)) return demoRecap(userText);
  if (/FIRST PART of one long turn/.test(userText)) return demoTurnPrefix(userText);
  const summary = demoSummary(userText);
  // asked for the recap in the same answer (prompts/compaction/recap-section.md): it ends with it
  return /add a section "## Recap"/.test(userText) ? `${summary}\n\n## Recap\n${demoRecap(summary)}` : summary;
}

const FILE_BLOCK = /\n*<file path="([^"]*)">\n?([\s\S]*?)\n?<\/file>/g;

/** The user's own words: the message without the blocks of @-mentioned files (src/app/mentions.ts). */
export function ownWords(message: string): string {
  return message.replace(FILE_BLOCK, '').trim();
}

/** The @-mentioned files a message carries, as the model sees them. */
export function attachedFiles(message: string): { path: string; content: string }[] {
  return [...message.matchAll(FILE_BLOCK)].map((m) => ({ path: m[1]!.replace(/&quot;/g, '"'), content: m[2] ?? '' }));
}

/** A scripted summary of one attached file: its size, headings and first paragraph. */
function fileSummary(file: { path: string; content: string }): string {
  const lines = file.content.split('\n');
  const headings = lines.filter((l) => /^#{1,3}\s/.test(l)).map((l) => l.replace(/^#+\s*/, '')).slice(0, 6);
  const paragraph = lines.filter((l) => l.trim() && !/^#/.test(l)).slice(0, 3).join(' ');
  return [
    `Summary of \`${file.path}\` (${lines.length} lines):`,
    '',
    ...(headings.length ? ['Sections:', bullets(headings), ''] : []),
    paragraph ? `It starts: "${oneLine(paragraph, 240)}"` : 'It has no text.',
  ].join('\n');
}

/** "summarize/explain/describe" with attached files: a read-only summary of them, never a tool call. */
function summaryOfAttachments(words: string, files: { path: string; content: string }[]): string | undefined {
  if (files.length === 0 || !/\b(summari[sz]e|summary|explain|describe|what(?:'s| is) in)\b/i.test(words)) return undefined;
  return [...files.map(fileSummary), '', '(Demo model: a scripted summary of the attached text.)'].join('\n\n');
}

function imageLine(images: number): string[] {
  return images === 0 ? [] : ['', `You attached ${images} image${images === 1 ? '' : 's'}; the offline demo cannot look at images.`];
}

export function demoReply(request: DemoRequest): DemoReply {
  const messages = request.messages ?? [];
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => text(m.content)).join('\n');
  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const userMessage = text(lastUser?.content);
  // the scripted rules read what the user typed, never the attached files' text
  const userText = ownWords(userMessage);
  const firstReply = !messages.some((m) => m.role === 'assistant');
  const label = firstReply ? `${DEMO_LABEL}\n\n` : '';

  if (isSummaryRequest(system, userText)) return { text: summaryReply(userMessage), toolCalls: [] };
  if (last?.role === 'tool') {
    const append = appendIntent(userText);
    const calls = [...messages].reverse().find((m) => m.role === 'assistant' && m.tool_calls?.length)?.tool_calls ?? [];
    if (append && calls.length === 1 && calls[0]!.function?.name === 'read') {
      const edit = appendEdit(append.path, append.text, text(last.content));
      if (edit) return { text: `I'll add the line at the end of \`${append.path}\`.`, toolCalls: [edit] };
    }
    return { text: summarizeToolResults(messages), toolCalls: [] };
  }

  const summary = summaryOfAttachments(userText, attachedFiles(userMessage));
  if (summary) return { text: `${label}${summary}`, toolCalls: [] };
  const available = new Set((request.tools ?? []).map((t) => t.function?.name ?? '').filter(Boolean));
  const call = intentFor(userText, available);
  if (call) return { text: `${label}${intro(call)}`, toolCalls: [call] };

  const reply = [
    `${label}You said: "${oneLine(userText, 200)}"`,
    ...imageLine(imageCount(lastUser?.content)),
    '',
    'I am the offline demo model, so I only understand a few requests. Try:',
    '',
    '- **list files** (or "list files in src")',
    '- **read README.md**',
    '- **create hello.txt with Hello world**',
    '- **edit hello.txt: replace "Hello" with "Goodbye"**',
    '- **add "Demo was here" to README.md**',
    '- **find \\*.ts**, **grep TODO**, **run `ls -la`**',
    '- `/compact` to see a structured summary',
  ].join('\n');
  return { text: reply, toolCalls: [] };
}

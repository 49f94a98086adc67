// The offline demo model's summaries (issue 25): a deterministic checkpoint of the conversation it is
// sent, in the sections the prompts ask for. Earlier summaries inside that conversation (a compaction's or
// a branch summary's `<summary>` block, the `<previous-summary>` of an update) are read as summaries — their
// goal and finished items carry over — never as the user's latest request, so one summary's text does not
// leak into the next one's "In Progress". The recap request gets a recap, the split-turn request its own
// sections, so no reply shows another prompt's headings or tags.

export function bullets(items: string[], empty = '(none)'): string {
  return items.length ? items.map((i) => `- ${i}`).join('\n') : empty;
}

export function oneLine(s: string, max = 160): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/** What an earlier summary says: its goal and its finished items. */
interface Earlier {
  goal?: string;
  done: string[];
}

function readSummary(summary: string): Earlier {
  const goal = /^#{1,6} Goal\s*\n+(?:[-*] (?:\[[ xX]\] )?)?([^\n#]+)/m.exec(summary)?.[1]?.trim();
  const done = [...summary.matchAll(/^- \[[xX]\] (.+)$/gm)].map((m) => m[1]!.trim());
  return { ...(goal ? { goal } : {}), done };
}

const SUMMARY_BLOCK = /<summary>([\s\S]*?)<\/summary>/;

/** The [User] messages of a serialized conversation: the user's requests, and the summaries among them. */
function userBlocks(conversation: string): { requests: string[]; summaries: string[] } {
  const blocks = [...conversation.matchAll(/\[User\]:\s*([\s\S]*?)(?=\n\n\[|$)/g)].map((m) => m[1]!.trim()).filter(Boolean);
  const summaries = blocks.flatMap((b) => SUMMARY_BLOCK.exec(b)?.[1]?.trim() ?? []);
  return { requests: blocks.filter((b) => !SUMMARY_BLOCK.test(b)), summaries };
}

/** The goal: the previous checkpoint's, else the user's first request, else an earlier summary's. */
function earlierOf(previous: string, summaries: string[], firstRequest: string | undefined): Earlier {
  const all = [previous, ...summaries].filter((s) => s.trim()).map(readSummary);
  const goal = readSummary(previous).goal ?? (firstRequest ? oneLine(firstRequest) : all.find((e) => e.goal)?.goal);
  return { ...(goal ? { goal } : {}), done: [...new Set(all.flatMap((e) => e.done))] };
}

/** Deterministic structured summary of the conversation text it was given. */
export function demoSummary(source: string): string {
  const conversation = /<conversation>([\s\S]*?)<\/conversation>/.exec(source)?.[1] ?? source;
  const previous = /<previous-summary>([\s\S]*?)<\/previous-summary>/.exec(source)?.[1] ?? '';
  const { requests: users, summaries } = userBlocks(conversation);
  const earlier = earlierOf(previous, summaries, users[0]);
  const calls = [...conversation.matchAll(/\[Assistant tool calls\]:\s*([^\n]+)/g)].flatMap((m) => m[1]!.split(/;\s*/)).map((c) => c.trim()).filter(Boolean);
  const errors = [...conversation.matchAll(/\[Tool result\]:\s*((?:Error|error)[^\n]*)/g)].map((m) => oneLine(m[1]!));
  const files = [...new Set([...conversation.matchAll(/((?:[\w-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8})\b/g)].map((m) => m[1]!))].filter((f) => !/^\d/.test(f)).slice(0, 12);
  const constraints = users.flatMap((u) => u.split(/(?<=[.!?])\s+/)).filter((s) => /\b(must|should|never|always|don't|do not|prefer|avoid)\b/i.test(s)).map((s) => oneLine(s));
  const goal = earlier.goal ?? 'Continue the current task.';
  const last = users.at(-1);
  // Every request before the newest one was answered: it is done, as are the tool calls.
  const answered = users.slice(0, -1).map((u) => `Answered: ${oneLine(u, 100)}`);
  const done = [...new Set([...earlier.done, ...answered, ...calls.map((c) => `Ran \`${oneLine(c, 100)}\``)])];
  return [
    '## Goal',
    goal,
    '',
    '## Constraints & Preferences',
    bullets(constraints),
    '',
    '## Progress',
    '### Done',
    done.length ? done.map((d) => `- [x] ${d}`).join('\n') : '(none)',
    '',
    '### In Progress',
    last ? `- [ ] ${oneLine(last)}` : '(none)',
    '',
    '### Blocked',
    bullets(errors),
    '',
    '## Key Decisions',
    `- **Demo summary**: written deterministically by Arbor Demo (offline) from ${users.length} user message(s) and ${calls.length} tool call(s)`,
    '',
    '## Next Steps',
    last ? `1. Continue with: ${oneLine(last)}` : '1. Wait for the next request',
    '',
    '## Critical Context',
    bullets(files.map((f) => `\`${f}\``)),
  ].join('\n');
}

/** The recap of a checkpoint (the compaction's short summary): two sentences, no headings, no tags. */
export function demoRecap(source: string): string {
  const summary = SUMMARY_BLOCK.exec(source)?.[1] ?? source;
  const { goal } = readSummary(summary);
  const next = /^#{1,6} Next Steps\s*\n+\d+[.)] ([^\n]+)/m.exec(summary)?.[1]?.trim();
  const first = goal ? `We worked on: ${oneLine(goal, 120).replace(/[.…]$/, '')}.` : 'We continued the current task.';
  return next ? `${first} Next: ${oneLine(next, 120).replace(/^Continue with:\s*/, '')}` : first;
}

/** The summary of the first part of a split turn, in the sections that request asks for. */
export function demoTurnPrefix(source: string): string {
  const conversation = /<conversation>([\s\S]*?)<\/conversation>/.exec(source)?.[1] ?? source;
  const request = userBlocks(conversation).requests[0];
  const calls = [...conversation.matchAll(/\[Assistant tool calls\]:\s*([^\n]+)/g)].map((m) => oneLine(m[1]!, 100));
  return [
    '## Original Request',
    request ? oneLine(request) : '(not in this part)',
    '',
    '## Early Progress',
    bullets(calls.map((c) => `Ran \`${c}\``)),
    '',
    '## Context for Suffix',
    '- (none)',
  ].join('\n');
}

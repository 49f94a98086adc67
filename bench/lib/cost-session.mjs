// The scripted coding session of bench/compaction-cost.mjs, shared by Arbor's side and pi's side (a child
// process under Node 22) so both play exactly the same turns: user requests, assistant tool calls, large
// tool results, deterministic (seeded) text. Plain JavaScript, pi's message format.

/** A turn generator: `turn(i)` returns the messages of turn i, the same sequence on every run. */
export function costSession({ model = 'fake-claude', api = 'anthropic-messages', provider = 'anthropic' } = {}) {
  let seed = 12345;
  let clock = Date.parse('2026-03-01T10:00:00Z');
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const words = ['parser', 'token', 'buffer', 'session', 'compaction', 'tree', 'branch', 'leaf', 'render', 'cache', 'index', 'module'];
  const text = (tokens) => Array.from({ length: Math.ceil((tokens * 4) / 7) }, () => words[Math.floor(rand() * words.length)]).join(' ');
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const stamp = () => (clock += 1000);
  const assistant = (content, stopReason) => ({ role: 'assistant', content, api, provider, model, usage, stopReason, timestamp: stamp() });
  return {
    text,
    turn(i) {
      const messages = [{ role: 'user', content: `Turn ${i}: ${text(150 + rand() * 300)}`, timestamp: stamp() }];
      const steps = 1 + Math.floor(rand() * 3);
      for (let s = 0; s < steps; s++) {
        const name = rand() < 0.5 ? 'read' : rand() < 0.5 ? 'edit' : 'bash';
        const call = { type: 'toolCall', id: `c${i}-${s}`, name, arguments: { path: `src/file${Math.floor(rand() * 20)}.ts` } };
        messages.push(assistant([{ type: 'text', text: text(80) }, call], 'toolUse'));
        messages.push({ role: 'toolResult', toolCallId: call.id, toolName: name, content: [{ type: 'text', text: text(800 + rand() * 3000) }], isError: false, timestamp: stamp() });
      }
      messages.push(assistant([{ type: 'text', text: text(200) }], 'stop'));
      return messages;
    },
  };
}

/** The fake provider's answer to every summary request: a well-formed checkpoint of about 1,000 tokens. */
export function summaryAnswer(text) {
  return ['## Goal', text(150), '## Constraints & Preferences', '- (none)', '## Progress', '### Done', `- [x] ${text(300)}`, '### In Progress', '- [ ] x', '### Blocked', '- (none)', '## Key Decisions', `- **A**: ${text(100)}`, '## Next Steps', '1. go on', '## Critical Context', `- ${text(200)}`].join('\n');
}

/**
 * The "## User Ledger" section a summarizer that follows Arbor's instructions writes when a prompt lists
 * messages over the budget (<user-messages-over-budget>, "[#n] text"): one line per message, in its own
 * first words. '' when the prompt asks for none (pi's prompts never do).
 */
export function ledgerAnswer(prompt) {
  const block = /<user-messages-over-budget>\n([\s\S]*?)\n<\/user-messages-over-budget>/.exec(prompt)?.[1];
  if (!block) return '';
  const lines = [...block.matchAll(/^\[#(\d+)\] (.*)$/gm)].map(([, n, text]) => `- [#${n}] ${text.split(/\s+/).slice(0, 10).join(' ')}`);
  return lines.length > 0 ? `## User Ledger\n${lines.join('\n')}` : '';
}


/** The UI recap Arbor's recaps are answered with, alone or as the section a summary prompt asks for. */
export const RECAP = 'We refactored the parser and moved the cache into its own module. Next we wire the cache into the renderer.';

/** The "## Recap" section a summarizer that follows Arbor's instructions ends its checkpoint with; '' when not asked (pi never asks). */
export function recapAnswer(prompt) {
  return /add a section "## Recap"/.test(prompt) ? `## Recap\n${RECAP}` : '';
}

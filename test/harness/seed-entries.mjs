// Session entries for UI tests that seed a session file: user, assistant and tool-result message entries with
// timestamps one second apart from `start`. One home for what the UI tests used to copy into each file.

const DEFAULT_USAGE = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A reply's usage: `tokens` input tokens and 50 output when given, else 100 in and 20 out. */
function usageOf(tokens) {
  if (tokens === undefined) return DEFAULT_USAGE;
  return { input: tokens, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: tokens + 50, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** Text as message content blocks. */
export const textContent = (text) => [{ type: 'text', text }];

/** Entry makers sharing one clock that starts at `start` (an ISO time) and advances a second per entry. */
export function seedEntries(start) {
  let clock = Date.parse(start);
  const at = () => new Date((clock += 1000)).toISOString();
  const user = (id, parentId, text) => ({ type: 'message', id, parentId, timestamp: at(), message: { role: 'user', content: text, timestamp: clock } });
  /** `content`: a text or content blocks; options: `stopReason` ('stop'), `errorMessage`, `tokens` (see usageOf). */
  const assistant = (id, parentId, content, options = {}) => ({
    type: 'message',
    id,
    parentId,
    timestamp: at(),
    message: {
      role: 'assistant',
      content: typeof content === 'string' ? textContent(content) : content,
      api: 'openai-completions',
      provider: 'fake',
      model: 'fake-gpt',
      usage: usageOf(options.tokens),
      stopReason: options.stopReason ?? 'stop',
      ...(options.errorMessage ? { errorMessage: options.errorMessage } : {}),
      timestamp: clock,
    },
  });
  const toolResult = (id, parentId, toolCallId, toolName, text) => ({
    type: 'message',
    id,
    parentId,
    timestamp: at(),
    message: { role: 'toolResult', toolCallId, toolName, content: textContent(text), isError: false, timestamp: clock },
  });
  return { at, user, assistant, toolResult };
}

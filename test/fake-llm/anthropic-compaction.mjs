// The fake server's Anthropic on-demand compaction (beta compact-2026-09-04): a /v1/messages request with
// `compaction: {type: "summarize"}` answers one signed `compaction` block (stop_reason "compaction"), and a
// request replaying a block is checked the way the API does (block first, beta header present).
import { createHash } from 'node:crypto';

const hash = (s) => createHash('sha256').update(s).digest('hex');
export const FAKE_COMPACTION_BETA = 'compact-2026-09-04';

function hasBeta(req) {
  return String(req.headers['anthropic-beta'] ?? '').split(',').map((s) => s.trim()).includes(FAKE_COMPACTION_BETA);
}

function blocksOf(body) {
  return (body.messages ?? []).flatMap((m, i) => (Array.isArray(m.content) ? m.content.map((b, j) => ({ b, first: i === 0 && j === 0 })) : []));
}

/** An error answer for a request that replays a compaction block wrongly, or undefined. */
export function compactionReplayError(req, body) {
  const compactions = blocksOf(body).filter(({ b }) => b.type === 'compaction');
  if (compactions.length === 0) return undefined;
  const error = (code, message) => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message, details: { error_code: code } } } });
  if (!hasBeta(req)) return error('invalid_request', `compaction blocks need the ${FAKE_COMPACTION_BETA} beta`);
  if (!compactions[0].first) return error('compaction_block_misplaced', 'The `compaction` block is not the first block of the conversation.');
  if (compactions.some(({ b }) => b.signature !== 'fake-sig:' + hash(String(b.content)).slice(0, 24))) return error('compaction_signature_invalid', 'The `compaction` block signature does not verify.');
  return undefined;
}

/** The answer to a compaction request: the whole conversation summarized into one signed block. */
export function compactionAnswer(req, body) {
  if (!hasBeta(req)) return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'compaction: Extra inputs are not permitted' } } };
  const text = JSON.stringify(body.messages ?? []);
  const content = `Fake compaction summary ${hash(text).slice(0, 16)} of ${(body.messages ?? []).length} messages.`;
  const block = { type: 'compaction', content, encrypted_content: null, signature: 'fake-sig:' + hash(content).slice(0, 24) };
  return {
    status: 200,
    body: { id: 'msg_cmp_' + hash(text).slice(0, 12), type: 'message', role: 'assistant', model: body.model, content: [block], stop_reason: 'compaction', stop_sequence: null, usage: { input_tokens: Math.ceil(text.length / 4), output_tokens: 40, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  };
}

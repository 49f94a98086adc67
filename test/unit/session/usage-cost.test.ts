// pi 1.5 counts `usage` entries and the usage on compactions and branch summaries in the session cost;
// Arbor writes usage, reason and tokensAfter on its own compactions. Failed on f262ede (only replies counted,
// nothing persisted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { entryCost } from '../../../src/session/entry-fields';
import { SessionStore } from '../../../src/session/store';

test('session cost counts replies, usage entries, compaction and branch-summary usage (pi 1.5 fixture)', async () => {
  const store = await SessionStore.open(join(__dirname, '..', '..', 'fixtures', 'pi-1.5', 'branches-edits-system.jsonl'));
  const byType = new Map<string, number>();
  for (const entry of store.getEntries()) byType.set(entry.type, (byType.get(entry.type) ?? 0) + entryCost(entry));
  assert.ok(Math.abs(byType.get('usage')! - 0.003) < 1e-12);
  assert.ok(Math.abs(byType.get('branch_summary')! - 0.004) < 1e-12);
  assert.ok(Math.abs(byType.get('compaction')! - 0.05) < 1e-12);
  assert.ok(byType.get('message')! > 0);
});

// Test helpers for the app's typed outcomes (src/app/app-outcome.ts): the value of an action that must
// have been done, and the refusal of one that must have been refused.
import assert from 'node:assert/strict';
import type { AppOutcome, AppRefusal, RefusalReason } from '../../../src/app/app-outcome';

export function accepted<T>(outcome: AppOutcome<T>): T {
  assert.equal(outcome.kind, 'done', `expected done, got ${JSON.stringify(outcome)}`);
  return (outcome as { value: T }).value;
}

export function refusal(outcome: object, reason: RefusalReason, message?: RegExp): AppRefusal {
  assert.equal((outcome as { kind?: string }).kind, 'refused', `expected a refusal, got ${JSON.stringify(outcome)}`);
  const refused = outcome as AppRefusal;
  assert.equal(refused.reason, reason, refused.message);
  if (message) assert.match(refused.message, message);
  return refused;
}

// Shared helpers for extension-host tests.
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';

export const EXTENSION_ID = 'arbor-dev.arbor';

export async function activateArbor(): Promise<ArborApi> {
  const extension = vscode.extensions.getExtension<ArborApi>(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  return extension.activate();
}

/** Resolves once `condition()` is true, polling; rejects with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** URL of the fake LLM server scripts/run-exthost-tests.mjs starts for the suite. */
export const FAKE_LLM_URL = process.env.ARBOR_TEST_LLM_URL;

/** Calls the fake LLM server's admin API: GET without a body, POST with one. */
export async function fakeAdmin(route: string, body?: unknown): Promise<any> {
  if (!FAKE_LLM_URL) throw new Error('ARBOR_TEST_LLM_URL is not set (run through scripts/run-exthost-tests.mjs)');
  const response = await fetch(`${FAKE_LLM_URL}/__admin/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

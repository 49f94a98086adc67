// The prompts the welcome suggests (no DOM here, so the host's unit tests can check what each one makes the
// offline demo do: test/unit/llm/demo-attachments.test.ts).
import type { WebviewString } from '../../src/protocol/webview-strings';

/** English texts (src/protocol/webview-strings.ts): the page shows them through t(). */
export const WELCOME_TIPS: readonly { label: WebviewString; prompt: WebviewString }[] = [
  { label: 'Explain this project', prompt: 'Explain what this project does and how it is organised.' },
  { label: 'Summarize a file with @', prompt: 'Summarize @README.md' },
  { label: 'Find and fix a bug', prompt: 'Find a bug in this project, explain it, and fix it with a test.' },
  { label: 'Add a test', prompt: 'Add a unit test for the main module and run the tests.' },
];

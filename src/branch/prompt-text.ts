// Branch prompt templates (prompts/branch/*.md) without the final newline editors add to Markdown files.
import { renderPrompt } from '../core/prompts';

export type BranchTemplate = 'branch-summary' | 'branch-summary-preamble' | 'carry-summary-preamble' | 'no-content' | 'stage-summary' | 'stage-summary-preamble';

export function branchPrompt(name: BranchTemplate, vars: Record<string, string> = {}): string {
  return renderPrompt(`branch/${name}`, vars).replace(/\r?\n$/, '');
}

// Text added to the composer's draft from outside it (the editor's Add to Chat): on a new paragraph after
// what is being written, alone in an empty draft.

export function appendToDraft(draft: string, addition: string): string {
  if (draft.trim() === '') return addition;
  return `${draft.replace(/\s+$/, '')}\n\n${addition}`;
}

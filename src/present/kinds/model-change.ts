// `model_change` entries (pi's `{provider, modelId}`, omp's `{model, role}`): they set the context's model
// (context.ts `applySettings`) and show as a notice in the chat.
import type { ModelChangeEntry } from '../../session/entries';
import { modelChangeText } from '../../session/entry-fields';
import type { EntryKind } from './kind';
import { noticeView } from '../entry-views';

export const modelChangeKind: EntryKind<ModelChangeEntry> = {
  isShown: () => true,
  view: (entry, label) => noticeView(entry, `Model: ${modelChangeText(entry)}`, label),
  treeKind: () => 'model_change',
  summaryLine: (entry) => modelChangeText(entry),
  look: (entry, t) => ({ kind: t('Model'), icon: 'server-environment', text: modelChangeText(entry) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => modelChangeText(entry),
  sections: (entry) => [{ title: 'Model', text: modelChangeText(entry) }],
};

// `custom` entries: an extension's (or Arbor's) data, never in the context or the chat. Arbor's file
// checkpoints (`arbor.files`, src/checkpoints/) say in both trees how many files their turn changed; an
// approval mode change (`arbor.approvalMode`, src/core/approval-modes.ts) says which mode.
import { readManifest } from '../../checkpoints/manifest';
import { APPROVAL_MODE_LABELS, approvalModeOf } from '../../core/approval-modes';
import type { CustomEntry, SessionEntry } from '../../session/entries';
import type { EntryKind } from './kind';

/** "N files changed" for an `arbor.files` manifest of a turn; undefined for other entries. */
export function filesChangedLine(entry: SessionEntry): string | undefined {
  const read = readManifest(entry);
  if (read.kind !== 'manifest') return undefined;
  const count = Object.keys(read.manifest.after).length;
  const files = count === 1 ? '1 file' : `${count} files`;
  return read.manifest.reason === 'turn' ? `${files} changed` : `${files} saved before a restore`;
}

/** "Mode: Plan" for an approval mode change; undefined for other entries. */
function modeLine(entry: CustomEntry): string | undefined {
  const mode = approvalModeOf(entry);
  return mode ? `Mode: ${APPROVAL_MODE_LABELS[mode]}` : undefined;
}

export const customKind: EntryKind<CustomEntry> = {
  isShown: () => false,
  view: () => undefined,
  treeKind: () => 'custom',
  summaryLine: (entry) => filesChangedLine(entry) ?? modeLine(entry) ?? entry.customType,
  look(entry, t) {
    const files = filesChangedLine(entry);
    if (files) return { kind: t('Files'), icon: 'files', text: files };
    const mode = approvalModeOf(entry);
    if (mode) return { kind: t('Mode'), icon: 'shield', text: APPROVAL_MODE_LABELS[mode] };
    return { kind: t('Extension data ({0})', entry.customType), icon: 'symbol-misc', text: '' };
  },
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.customType,
  sections: () => [],
};

// Public surface of the application controller for the VS Code layer.
export * from './arbor-app';
export * from './settings';
export * from './view-model';
export { parseSlashCommand, type SlashCommand } from './slash-commands';
export { previewFileChange, type FileChangePreview } from './approval-preview';
export type { TreeDelta } from './tree-index';

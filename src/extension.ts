// Extension entry point: wires the VS Code adapters around the application controller (src/app). Keep it
// thin: logic lives in src/app (no vscode) or in the adapters under src/vscode/. Provider SDKs and the
// tokenizer are loaded lazily by the modules that need them (dynamic import), never here.
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { ProjectInstructions } from './agent/instructions/project-instructions';
import { toolRegistryWithSkills } from './agent/instructions/skill-tool';
import { bundledRipgrep, workspaceFromPaths } from './agent/tools';
import type { ArborApp } from './app/arbor-app';
import { ArborChats } from './app/chats';
import { setPromptRoot } from './core/prompts';
import { disposeDemoModel } from './llm/demo';
import { defaultSessionDir } from './session/catalog';
import type { ArborApi } from './vscode/api';
import { ChatApprovalPrompter } from './vscode/approval-prompter';
import { ChatViewProvider } from './vscode/chat-view';
import type { ChatController } from './vscode/chat-controller';
import { ChatPanels } from './vscode/chat-panels';
import { EditorChatMemory } from './vscode/editor-chat-memory';
import { ConversationTreeTabs } from './vscode/tree-tabs';
import { NotificationCompactionConfirmer } from './vscode/compaction-confirmer';
import { collectChatState, onDidChangeChatState } from './vscode/chat-state';
import { ArborConfig } from './vscode/settings/arbor-settings';
import { LastSessionMemory, WorkspaceLeafMemory } from './vscode/leaf-memory';
import { createLogger } from './vscode/log';
import { hostKeyResolver, SecretKeys } from './vscode/secrets';
import { openWalkthroughOnce, walkthroughDeps } from './vscode/walkthrough';
import { registerSurfaces } from './vscode/surfaces';
import { McpHost } from './vscode/mcp/mcp-host';
import { registerEditorTools } from './vscode/editor-tools';
import { VscodeLanguageModels } from './vscode/language-models';
import { hostModelInfo } from './llm/providers/vscode-lm';
import type { ImageContent } from './core/messages';

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

export function activate(context: vscode.ExtensionContext): ArborApi {
  // Measured here, inside the real extension host, so the figure includes VS Code's own objects
  // (the activation bench can only time activate() against a stand-in vscode).
  const activationStarted = performance.now();
  const log = createLogger(context);
  setPromptRoot(vscode.Uri.joinPath(context.extensionUri, 'prompts').fsPath);

  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const cwd = roots[0] ?? homedir();
  const config = new ArborConfig(log);
  const secrets = new SecretKeys(context.secrets);
  const prompter = new ChatApprovalPrompter();
  const languageModels = new VscodeLanguageModels();
  const refreshLanguageModels = () =>
    languageModels.models().then(
      (models) => config.setHostModels(models.map(hostModelInfo)),
      (error) => log.warn(`VS Code language models: listing failed: ${(error as Error).message}`),
    );
  const sessionsDir = () => {
    const configured = config.settings.sessionsDirectory;
    if (configured) {
      const expanded = expandHome(configured);
      return isAbsolute(expanded) ? expanded : join(cwd, expanded);
    }
    return defaultSessionDir(join(context.globalStorageUri.fsPath, 'sessions'), cwd);
  };
  // Instruction files and Agent Skills: one scan per prompt, shared by every chat (src/agent/instructions/).
  const instructions = new ProjectInstructions({
    workspace: workspaceFromPaths(roots),
    userSkillPaths: () => config.settings.skillPaths,
    globalFiles: () => config.settings.globalInstructionFiles,
    log: (message) => log.warn(message),
  });
  void instructions.refresh(); // the chat's "Instructions" line before the first prompt
  // The one live tool list of this host: the built-ins (VS Code's own ripgrep first, then rg on PATH), the
  // `skill` tool (source `skills`), and whatever other sources (MCP servers, VS Code's tools) add with
  // `tools.set(source, …)`; every chat's every request reads it then.
  const tools = toolRegistryWithSkills(instructions, { ripgrep: bundledRipgrep(vscode.env.appRoot) });
  // the editor's knowledge (source `editor`) and VS Code's tools the user chose (`vscode-lm`)
  const editorTools = registerEditorTools(tools, workspaceFromPaths(roots), () => config.settings.editorTools);
  // The side bar's chat is the primary one; editor tabs open more (chat-panels.ts), each with its own session.
  const chats = new ArborChats({
    sessionsDir,
    journalsDir: () => join(context.globalStorageUri.fsPath, 'restore-journals'),
    workspaceRoots: roots,
    tools,
    editFeedback: editorTools.editFeedback,
    instructions,
    trusted: () => vscode.workspace.isTrusted,
    settings: () => config.settings,
    keys: hostKeyResolver(secrets),
    providerOptions: { languageModels },
    leafMemory: new WorkspaceLeafMemory(context.workspaceState),
    prompter,
    compactionConfirmer: new NotificationCompactionConfirmer({ log: (m) => log.warn(m) }),
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
  });
  const app = chats.primary;

  const focusSideBar = () => vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  const controllerDeps = (chatApp: ArborApp) => ({
    extensionUri: context.extensionUri,
    log,
    prompter,
    getState: () => collectChatState(context, chatApp, () => config.settings),
    showSessionTree: () => vscode.commands.executeCommand('arbor.sessionTree.focus'),
  });
  const chatView = new ChatViewProvider({ ...controllerDeps(app), app, onFocus: () => chats.focus(app), reveal: focusSideBar });
  const chatPanels = new ChatPanels({ chats, log, extensionUri: context.extensionUri, controllerDeps, sideBar: { chat: chatView, reveal: focusSideBar }, memory: new EditorChatMemory(context.workspaceState) });
  chatPanels.reopenLost();
  /** The focused chat's controller, shown (the side bar's waits for its webview to load). */
  const focusedChat = async (): Promise<ChatController> => {
    const panel = chatPanels.panelOf(chats.focused);
    if (panel) {
      panel.panel.reveal();
      return panel;
    }
    if (!chatView.isReady) await focusSideBar();
    return chatView;
  };
  const setChatInput = async (text: string, images?: readonly ImageContent[]) => {
    const chat = await focusedChat();
    if (chat === chatView) await focusSideBar();
    await chat.setEditorText(text, images);
  };
  /** The focused chat, shown: where the editor's entry points (Add to Chat, Fix with Arbor) send. */
  const shownChat = async (): Promise<ChatController> => {
    const chat = await focusedChat();
    if (chat === chatView) await focusSideBar();
    return chat;
  };
  const treeTabs = new ConversationTreeTabs({ extensionUri: context.extensionUri, chats, log, setChatInput, chatDeps: controllerDeps, memory: new EditorChatMemory(context.workspaceState, 'arbor.treeTabs') });
  const mcp = new McpHost({ context, log, tools, onSettingsChanged: config.onDidChange });
  const surfaces = registerSurfaces(context, chats, log, () => config.settings, {
    // Session Tree selection → the chat scrolls to the entry (and says so when it is off the active path).
    revealInChat: async (entryId) => {
      await (await focusedChat()).revealEntry(entryId);
    },
    showChat: (chatApp) => chatPanels.reveal(chatApp),
    setChatInput,
    addToChatInput: async (text) => (await shownChat()).addToInput(text),
    promptInChat: async (text) => (await shownChat()).receive({ type: 'prompt', text }),
  }, { keys: secrets, chatPanels, conversationTree: { show: () => treeTabs.show(chats.focused) }, mcp });

  const applySettings = () => chats.applySettings().catch((error) => log.error(`applying settings failed: ${(error as Error).message}`));
  context.subscriptions.push(
    editorTools,
    config,
    secrets,
    prompter,
    chatView,
    chatPanels,
    chats,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chatView, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
    onDidChangeChatState(() => {
      for (const chat of [chatView, ...chatPanels.panels]) void chat.postState();
    }),
    // a skill or instruction file added, changed or removed: every chat's "Instructions" line follows
    instructions.onDidChange(() => {
      for (const chat of [chatView, ...chatPanels.panels]) void chat.postState();
    }),
    vscode.lm.onDidChangeChatModels(() => void refreshLanguageModels()),
    config.onDidChange(() => void applySettings()),
    secrets.onDidChange(() => void applySettings()),
    treeTabs,
    mcp,
  );
  void mcp.reload();
  // After a window reload the chat reopens the session it showed, at its remembered leaf.
  const lastSession = new LastSessionMemory(context.workspaceState);
  context.subscriptions.push(lastSession.track(app));
  void refreshLanguageModels();
  void openWalkthroughOnce(walkthroughDeps(context)).then(
    (opened) => opened && log.info('walkthrough opened (first activation in this profile)'),
    (error) => log.warn(`opening the walkthrough failed: ${(error as Error).message}`),
  );
  void applySettings()
    .then(() => lastSession.reopen(app, (file) => stat(file).then((s) => s.isFile(), () => false)))
    .catch((error) => log.warn(`reopening the last session failed: ${(error as Error).message}`));

  const activationMs = Math.round((performance.now() - activationStarted) * 10) / 10;
  log.info(`Arbor ${collectChatState(context).extensionVersion} activated in ${activationMs} ms; sessions in ${sessionsDir()}`);
  return {
    activationMs,
    app,
    compactionHooks: app.compactionHooks,
    navigationHooks: app.navigationHooks,
    approvals: prompter,
    hasApiKey: (provider) => secrets.hasKey(provider),
    chatView,
    chats,
    chatPanels,
    treeTabs,
    sessionTree: surfaces.sessionTree,
    config,
    mcp,
    tools,
  };
}

export async function deactivate(): Promise<void> {
  // Everything else is disposed through context.subscriptions.
  await disposeDemoModel();
}

// A workbench whose Arbor talks to the fake LLM server (test/fake-llm): the server starts in the
// workbench's before hook and closes after the file; the settings name its models, the file's sessions
// folder and the dark theme. One home for the setup most UI test files share.
import { after } from 'node:test';
import { startFakeLlm } from '../fake-llm/server.mjs';
import { fakeModelSettings } from './browser.mjs';
import { useWorkbench } from './ui.mjs';

/**
 * `models` reshapes the fake's model list (say, to add one without image input); `settings` adds to or
 * overrides the rest; `workspace` opens that folder instead of a fresh copy of demo/ (startCodeServer). Returns the
 * workbench and `llm`, whose `server` is the running fake once started.
 */
export function useFakeLlmWorkbench(name, { sessionsDir, workspace, models = (list) => list, settings = () => ({}) }) {
  const llm = { server: undefined };
  after(async () => {
    await llm.server?.close?.();
  });
  const wb = useWorkbench(name, async () => {
    const fake = (llm.server = await startFakeLlm());
    const fakeModels = fakeModelSettings(fake);
    return {
      ...(workspace ? { workspace } : {}),
      extraEnv: { ARBOR_TEST_LLM_URL: fake.url },
      settings: {
        'arbor.sessions.directory': sessionsDir,
        ...fakeModels,
        'arbor.models': models(fakeModels['arbor.models']),
        'workbench.colorTheme': 'Default Dark Modern',
        ...settings(fake),
      },
    };
  });
  return { wb, llm };
}

#!/usr/bin/env node
// Installs the VS Code under test (node@24 + code-server) into .vscode-test/ if it is not there yet.
import { ensureVsCodeUnderTest, isInstalled } from '../test/harness/install.mjs';

if (isInstalled()) console.log('[install] VS Code under test already installed in .vscode-test/');
await ensureVsCodeUnderTest();

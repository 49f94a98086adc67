// The four colour themes UI tests check: dark, light, high-contrast dark and high-contrast light
// (switch with setColorTheme in browser.mjs).

/** [theme, body class the webview gets, short tag for screenshot names] */
export const THEMES = [
  ['Default Dark Modern', 'vscode-dark', 'dark'],
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
  ['Default High Contrast Light', 'vscode-high-contrast-light', 'hc-light'],
];

export * from './messages';
export * from './validate';
export * from './files';
export * from './images';
export * from './webview-strings';

export * from './messages';
export * from './validate';

/** The Nerts rules engine: pure, no I/O, importable by the server and the web client. */
export * from './cards';
export * from './rng';
export * from './violations';
export * from './foundations';
export * from './variants';
export * from './table';
export * from './scoring';
export * from './match';
export * from './referee';
export * from './score-input';
export * from './playout';

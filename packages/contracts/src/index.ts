export * from './errors.js';
export * from './system.js';

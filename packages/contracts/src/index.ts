export * from './auth.js';
export * from './errors.js';
export * from './system.js';
export * from './validation-messages.js';

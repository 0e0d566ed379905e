export * from './auth.js';
export * from './errors.js';
export * from './identity.js';
export * from './profile.js';
export * from './system.js';
export * from './validation-messages.js';

// Test and benchmark helpers (never built into the product): real recordings, models and scoring.
export * from './decoded-recording.js';
export * from './manifest.js';
export * from './media-fixtures.js';
export * from './paths.js';
export * from './wer.js';
export * from './wer-difference.js';

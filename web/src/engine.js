// The engine's public entry point (README, "The engine's JavaScript API"): course pages, tests
// and scripts import loadEngine and AttentionError from here. The code is in engine/.
export * from './engine/api.js';

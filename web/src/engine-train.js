// The trainer's public entry point (README, "The playground's trainer"): loadTrainEngine. The
// code is in engine/.
export * from './engine/train-api.js';

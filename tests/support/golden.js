// The one loader of the PyTorch golden vectors for the JavaScript tests (tests/golden/*.json, made
// by the committed scripts beside them): a file's cases, read once per test file. The C++ tests
// have theirs in tests/cpp/golden.h.
import { readFileSync } from 'node:fs';

// The cases of tests/golden/<file> (e.g. 'block.json'), as the script wrote them.
export const goldenCases = (file) =>
  JSON.parse(readFileSync(new URL(`../golden/${file}`, import.meta.url), 'utf8')).cases;

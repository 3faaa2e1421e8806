// A failing `node --test` file exits: the test files make their worker threads only through
// tests/support/workers.js, which ends every thread a file made after its last test, passed or
// failed. Without it a failing test left a thread alive and `node --test` never exited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUPPORT = new URL('../support/workers.js', import.meta.url);

// Runs `node --test` on one file; resolves with its exit code and output once the process exits.
// The cap only turns a hang into a failure (the process is killed and the code is null).
function runTests(file) {
  return new Promise((resolve) => {
    // a run of its own, not a subtest of this one (node --test marks its children by this variable)
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(process.execPath, ['--test', file], { env, timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

test('a file whose test fails while its threads are alive exits with failure', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'exits-'));
  try {
    const file = join(dir, 'fails.test.mjs');
    writeFileSync(
      file,
      `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeWorker, pageWorker } from ${JSON.stringify(SUPPORT.href)};
test('fails with two threads alive', () => {
  nodeWorker('setInterval(() => {}, 1000);', { eval: true });
  pageWorker('require("worker_threads").parentPort.on("message", () => {});', { eval: true });
  assert.equal(1 + 1, 3);
});
`,
    );
    const { code, signal, output } = await runTests(file);
    assert.equal(signal, null, `node --test was killed (${signal}): it did not exit\n${output}`);
    assert.equal(code, 1, output);
    assert.match(output, /^# fail 1$/m);
    assert.match(output, /not ok 1 - fails with two threads alive/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no test file makes a worker thread but through tests/support/workers.js', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files = ['js', 'support'].flatMap((d) =>
    readdirSync(join(root, d))
      .filter((f) => /\.m?js$/.test(f))
      .map((f) => join(d, f)),
  );
  const own = [];
  for (const f of files) {
    if (f === join('support', 'workers.js')) continue;
    const text = readFileSync(join(root, f), 'utf8');
    // importing Worker from worker_threads, or constructing one, outside the helper
    if (/import\s*\{[^}]*\bWorker\b[^}]*\}\s*from\s*'node:worker_threads'|new Worker\(/.test(text)) own.push(f);
  }
  assert.ok(files.length > 40, `${files.length} files read`);
  assert.deepEqual(own, []);
});

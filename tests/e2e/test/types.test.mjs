// The client's JSDoc types (web-client/src/types.js and every annotation) type-check
// with TypeScript in strict mode. Nothing is compiled: the client ships as written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

test('the client type-checks (tsc --checkJs, strict)', { timeout: 120000 }, () => {
  const tsc = path.join(HERE, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(HERE, '..', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(run.status, 0, `tsc found problems:\n${run.stdout}${run.stderr}`);
});

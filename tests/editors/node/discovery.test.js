'use strict';
// Unit tests of the VS Code extension's binary discovery
// (editors/vscode/src/discovery.js): setting, then PATH, then the bundled
// binary, with the `--version` check. Fake binaries are small shell scripts.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const d = require('../../../editors/vscode/src/discovery');
const { BIN } = require('./lsp-client');

function tmp(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-discovery-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A fake ascend-lsp in dir/sub printing `out` for --version.
function fake(dir, sub, out, { mode = 0o755, body } = {}) {
  const p = path.join(dir, sub, 'ascend-lsp');
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, `#!/bin/sh\n${body || `echo "${out}"`}\n`, { mode });
  return p;
}

test('parseVersion reads "ascend-lsp X.Y.Z" and nothing else', () => {
  assert.deepEqual(d.parseVersion('ascend-lsp 0.1.0'), [0, 1, 0]);
  assert.deepEqual(d.parseVersion('ascend-lsp 1.12.3\nbuilt with tree-sitter 0.20'), [1, 12, 3]);
  assert.equal(d.parseVersion('ruff 0.1.0'), null);
  assert.equal(d.parseVersion('ascend-lsp 0.1'), null);
  assert.equal(d.parseVersion(''), null);
  assert.equal(d.parseVersion(undefined), null);
});

test('compareVersions orders numerically, not as text', () => {
  assert.equal(d.compareVersions([0, 10, 0], [0, 9, 9]), 1);
  assert.equal(d.compareVersions([0, 1, 0], [0, 1, 0]), 0);
  assert.equal(d.compareVersions([0, 0, 9], [0, 1, 0]), -1);
});

test('expandSettingPath: ~, ${userHome}, ${workspaceFolder} and relative paths', () => {
  const o = { workspaceFolder: '/w/proj', home: '/home/u' };
  assert.equal(d.expandSettingPath('~/bin/ascend-lsp', o), '/home/u/bin/ascend-lsp');
  assert.equal(d.expandSettingPath('${userHome}/x/ascend-lsp', o), '/home/u/x/ascend-lsp');
  assert.equal(d.expandSettingPath('${workspaceFolder}/build/ascend-lsp', o), '/w/proj/build/ascend-lsp');
  assert.equal(d.expandSettingPath('build/ascend-lsp', o), '/w/proj/build/ascend-lsp');
  assert.equal(d.expandSettingPath('  /opt/ascend-lsp  ', o), '/opt/ascend-lsp');
  assert.equal(d.expandSettingPath('build/ascend-lsp', { home: '/home/u' }), 'build/ascend-lsp');
});

test('findOnPath takes the first executable in PATH order and skips the rest', (t) => {
  const dir = tmp(t);
  fake(dir, 'noexec', 'ascend-lsp 9.9.9', { mode: 0o644 });
  fs.mkdirSync(path.join(dir, 'isdir', 'ascend-lsp'), { recursive: true });
  const first = fake(dir, 'first', 'ascend-lsp 0.1.0');
  fake(dir, 'second', 'ascend-lsp 0.2.0');
  const PATH = ['noexec', 'isdir', 'missing', 'first', 'second'].map((s) => path.join(dir, s)).join(path.delimiter);
  assert.equal(d.findOnPath('ascend-lsp', { PATH }), first);
  assert.equal(d.findOnPath('ascend-lsp', { PATH: path.join(dir, 'noexec') }), null);
  assert.equal(d.findOnPath('ascend-lsp', {}), null);
});

test('the setting wins over PATH and the bundled binary', async (t) => {
  const dir = tmp(t);
  const set = fake(dir, 'custom', 'ascend-lsp 0.3.0');
  fake(dir, 'onpath', 'ascend-lsp 0.1.0');
  fake(dir, 'ext/bin', 'ascend-lsp 0.1.0');
  const r = await d.resolveServer({
    settingPath: set, env: { PATH: path.join(dir, 'onpath') }, extensionPath: path.join(dir, 'ext'),
  });
  assert.deepEqual(r, { ok: true, path: set, source: 'setting', version: '0.3.0', warnings: [] });
});

test('a relative setting is resolved against the workspace folder', async (t) => {
  const dir = tmp(t);
  const p = fake(dir, 'build', 'ascend-lsp 0.1.0');
  const r = await d.resolveServer({ settingPath: 'build/ascend-lsp', workspaceFolder: dir, env: { PATH: '' } });
  assert.equal(r.ok, true);
  assert.equal(r.path, p);
  assert.equal(r.source, 'setting');
});

test('a setting naming a missing file is an error, with no silent fallback', async (t) => {
  const dir = tmp(t);
  fake(dir, 'onpath', 'ascend-lsp 0.1.0');
  const missing = path.join(dir, 'nope', 'ascend-lsp');
  const r = await d.resolveServer({ settingPath: missing, env: { PATH: path.join(dir, 'onpath') } });
  assert.deepEqual(r, {
    ok: false,
    tried: [`setting: ${missing}`],
    message: `ascend-lsp.path is set to "${missing}" but ${missing} is not an executable file. Fix the setting or clear it to use ascend-lsp from PATH or the bundled binary.`,
  });
});

test('a setting naming a too-old binary is refused with the version in the message', async (t) => {
  const dir = tmp(t);
  const old = fake(dir, 'old', 'ascend-lsp 0.0.9');
  const r = await d.resolveServer({ settingPath: old, env: { PATH: '' } });
  assert.equal(r.ok, false);
  assert.equal(r.message, `ascend-lsp.path: ${old} is ascend-lsp 0.0.9, older than 0.1.0 which this extension needs; update it, or clear the setting to use ascend-lsp from PATH or the bundled binary.`);
});

test('without a setting, PATH comes before the bundled binary', async (t) => {
  const dir = tmp(t);
  const onPath = fake(dir, 'onpath', 'ascend-lsp 0.1.0');
  fake(dir, 'ext/bin', 'ascend-lsp 0.1.0');
  const r = await d.resolveServer({ settingPath: '', env: { PATH: path.join(dir, 'onpath') }, extensionPath: path.join(dir, 'ext') });
  assert.deepEqual(r, { ok: true, path: onPath, source: 'PATH', version: '0.1.0', warnings: [] });
});

test('nothing on PATH: the bundled binary in the extension\'s bin/', async (t) => {
  const dir = tmp(t);
  const bundled = fake(dir, 'ext/bin', 'ascend-lsp 0.1.0');
  const r = await d.resolveServer({ env: { PATH: path.join(dir, 'empty') }, extensionPath: path.join(dir, 'ext') });
  assert.deepEqual(r, { ok: true, path: bundled, source: 'bundled', version: '0.1.0', warnings: [] });
});

test('a bundled binary that lost its executable bit is made executable again', async (t) => {
  const dir = tmp(t);
  const bundled = fake(dir, 'ext/bin', 'ascend-lsp 0.1.0', { mode: 0o644 });
  const r = await d.resolveServer({ env: { PATH: '' }, extensionPath: path.join(dir, 'ext') });
  assert.deepEqual(r, { ok: true, path: bundled, source: 'bundled', version: '0.1.0', warnings: [] });
  assert.equal(fs.statSync(bundled).mode & 0o777, 0o755);
});

test('a too-old binary on PATH gives way to the bundled one, with a warning', async (t) => {
  const dir = tmp(t);
  const old = fake(dir, 'onpath', 'ascend-lsp 0.0.1');
  const bundled = fake(dir, 'ext/bin', 'ascend-lsp 0.1.0');
  const r = await d.resolveServer({ env: { PATH: path.join(dir, 'onpath') }, extensionPath: path.join(dir, 'ext') });
  assert.deepEqual(r, {
    ok: true, path: bundled, source: 'bundled', version: '0.1.0',
    warnings: [`${old} is ascend-lsp 0.0.1, older than 0.1.0 which this extension needs; update it`],
  });
});

test('missing everywhere: a clear message saying how to get the binary', async (t) => {
  const dir = tmp(t);
  const r = await d.resolveServer({ env: { PATH: path.join(dir, 'empty') }, extensionPath: path.join(dir, 'ext') });
  assert.deepEqual(r, {
    ok: false,
    tried: ['PATH: not found', `bundled: ${path.join(dir, 'ext', 'bin', 'ascend-lsp')} (absent)`],
    message: 'The ascend-lsp binary was not found: it is not on PATH and this extension has no bundled binary. ' +
      'Build it (`make` in the ascend-lsp repository) and set "ascend-lsp.path" to build/ascend-lsp, ' +
      'put it on PATH, or install the .vsix built by `make vsix`, which bundles it.',
  });
});

test('only unusable binaries: the message lists each problem', async (t) => {
  const dir = tmp(t);
  const garbage = fake(dir, 'onpath', 'clangd version 15');
  const failing = fake(dir, 'ext/bin', '', { body: 'echo "boom" >&2; exit 3' });
  const r = await d.resolveServer({ env: { PATH: path.join(dir, 'onpath') }, extensionPath: path.join(dir, 'ext') });
  assert.equal(r.ok, false);
  assert.equal(r.message, `No usable ascend-lsp binary: \`${garbage} --version\` printed "clangd version 15", not "ascend-lsp X.Y.Z"; ` +
    `\`${failing} --version\` failed: boom. Set "ascend-lsp.path" to a binary of version 0.1.0 or newer.`);
});

test('a binary that hangs on --version is given up after the timeout', async (t) => {
  const dir = tmp(t);
  const hang = fake(dir, 'onpath', '', { body: 'exec sleep 30' });
  const started = Date.now();
  const r = await d.resolveServer({ env: { PATH: path.join(dir, 'onpath') }, timeoutMs: 300 });
  assert.ok(Date.now() - started < 5000);
  assert.equal(r.ok, false);
  assert.equal(r.message, `No usable ascend-lsp binary: \`${hang} --version\` failed: timed out after 0.3 s. Set "ascend-lsp.path" to a binary of version 0.1.0 or newer.`);
});

test('the real ascend-lsp binary passes the version check', async () => {
  const r = await d.resolveServer({ settingPath: BIN, env: { PATH: '' } });
  assert.deepEqual(r, { ok: true, path: BIN, source: 'setting', version: '0.1.0', warnings: [] });
});

'use strict';
// The packaged extension, as `make vsix` builds it and VS Code unpacks it:
// run.sh builds the .vsix and extracts it to $ASCEND_VSIX_DIR. The
// extension is then loaded from there (the `vscode` module stubbed), finds
// the binary bundled in its bin/ with nothing on PATH, and the server it
// starts publishes the fixture's diagnostics.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const { fileUri, resolveRuleLink } = require('./lsp-client');

const VSIX_DIR = process.env.ASCEND_VSIX_DIR;
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const STUBS = { vscode: path.join(__dirname, 'stubs', 'vscode.js'), 'vscode-languageclient/node': path.join(__dirname, 'stubs', 'languageclient.js') };

test('the .vsix holds the manifest, the sources, the bundled binary and the language client', () => {
  assert.ok(VSIX_DIR, 'ASCEND_VSIX_DIR is not set: run tests/editors/run.sh, which builds the .vsix with make vsix');
  const ext = path.join(VSIX_DIR, 'extension');
  const pkg = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'ascend-lsp');
  assert.ok(fs.existsSync(path.join(ext, pkg.main)), pkg.main);
  assert.ok(fs.existsSync(path.join(ext, 'src', 'discovery.js')));
  assert.ok(fs.statSync(path.join(ext, 'bin', 'ascend-lsp')).size > 0);
  assert.equal(fs.readFileSync(path.join(ext, 'docs', 'rules.md'), 'utf8'),
    fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'rules.md'), 'utf8'));
  assert.ok(fs.existsSync(path.join(ext, 'node_modules', 'vscode-languageclient', 'lib', 'node', 'main.js')));
  // Development-only packages stay out.
  assert.equal(fs.existsSync(path.join(ext, 'node_modules', '@vscode', 'vsce')), false);
  const manifest = fs.readFileSync(path.join(VSIX_DIR, 'extension.vsixmanifest'), 'utf8');
  assert.match(manifest, /TargetPlatform="linux-(x64|arm64|armhf)"/);
});

test('the unpacked extension starts its bundled server and gets diagnostics', { timeout: 60000 }, async (t) => {
  assert.ok(VSIX_DIR, 'ASCEND_VSIX_DIR is not set: run tests/editors/run.sh');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (Object.prototype.hasOwnProperty.call(STUBS, request)) return STUBS[request];
    return resolve.call(this, request, ...rest);
  };
  const vscode = require('vscode');
  const lc = require('vscode-languageclient/node');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-vsix-'));
  fs.cpSync(path.join(FIXTURES, 'project'), dir, { recursive: true });
  const savedPath = process.env.PATH;
  process.env.PATH = '/nonexistent-dir';
  const ext = require(path.join(VSIX_DIR, 'extension', 'src', 'extension.js'));
  t.after(async () => {
    process.env.PATH = savedPath;
    await ext.deactivate();
    for (const c of lc._instances.splice(0)) c.kill();
    Module._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  vscode._test.reset();
  vscode._test.state.workspaceFolders = [{ uri: vscode.Uri.file(dir), name: 'project', index: 0 }];
  const context = { subscriptions: [], extensionPath: path.join(VSIX_DIR, 'extension') };
  await ext.activate(context);
  const bundled = path.join(VSIX_DIR, 'extension', 'bin', 'ascend-lsp');
  assert.ok(vscode._test.state.output.lines.includes(`[discovery] using ascend-lsp 0.1.0 (bundled): ${bundled}`),
    vscode._test.state.output.lines.join('\n'));
  const client = lc._instances[0];
  const uri = fileUri(path.join(dir, 'train.py'));
  client.openDocument(uri, 'python', fs.readFileSync(path.join(dir, 'train.py'), 'utf8'));
  const end = Date.now() + 10000;
  let pub;
  while (!(pub = client.notifications.find((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri))) {
    assert.ok(Date.now() < end, 'timed out waiting for diagnostics');
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(pub.params.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`),
    ['7:26 ASC204', '8:18 ASC203', '12:4 ASC201', '13:4 ASC201']);
  // The rule links lead to the reference packaged with the extension.
  assert.deepEqual(pub.params.diagnostics.map((d) => resolveRuleLink(d.codeDescription.href)), [
    { file: path.join(VSIX_DIR, 'extension', 'docs', 'rules.md'), heading: 'ASC204 cuda-device-string' },
    { file: path.join(VSIX_DIR, 'extension', 'docs', 'rules.md'), heading: 'ASC203 cuda-method' },
    { file: path.join(VSIX_DIR, 'extension', 'docs', 'rules.md'), heading: 'ASC201 torch-cuda-api' },
    { file: path.join(VSIX_DIR, 'extension', 'docs', 'rules.md'), heading: 'ASC201 torch-cuda-api' },
  ]);
});

'use strict';
// The VS Code extension (editors/vscode) run under a stub of the `vscode`
// module, with a language client that talks to the real ascend-lsp binary:
// manifest, activation, binary discovery messages, the report command
// (progress, then the Markdown preview), fix all, restart.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const { BIN, fileUri } = require('./lsp-client');

const EXT_DIR = path.resolve(__dirname, '..', '..', '..', 'editors', 'vscode');
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const STUBS = { vscode: path.join(__dirname, 'stubs', 'vscode.js'), 'vscode-languageclient/node': path.join(__dirname, 'stubs', 'languageclient.js') };

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (Object.prototype.hasOwnProperty.call(STUBS, request)) return STUBS[request];
  return resolve.call(this, request, ...rest);
};
const vscode = require('vscode');
const lc = require('vscode-languageclient/node');

function loadExtension() {
  const main = path.join(EXT_DIR, 'src', 'extension.js');
  delete require.cache[main];
  return require(main);
}

function calls(name) {
  return vscode._test.calls.filter((c) => c.name === name).map((c) => c.args);
}

async function until(pred, what, ms = 8000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// A fresh workspace, settings and extension context for each test.
function setup(t, settings) {
  vscode._test.reset();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-vscode-'));
  fs.cpSync(path.join(FIXTURES, 'project'), dir, { recursive: true });
  const extDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-vscode-ext-'));
  vscode._test.state.workspaceFolders = [{ uri: vscode.Uri.file(dir), name: path.basename(dir), index: 0 }];
  vscode._test.state.settings = settings;
  const context = { subscriptions: [], extensionPath: extDir };
  const ext = loadExtension();
  t.after(async () => {
    await ext.deactivate();
    for (const c of lc._instances.splice(0)) c.kill();
    for (const s of context.subscriptions) s.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(extDir, { recursive: true, force: true });
  });
  return { dir, extDir, context, ext };
}

test('package.json: activation, settings and commands match what the extension uses', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(EXT_DIR, 'package.json'), 'utf8'));
  assert.equal(pkg.main, './src/extension.js');
  // Restricted Mode: the extension starts a binary, so a folder not yet
  // trusted must not choose which one.
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['ascend-lsp.path']);
  assert.match(pkg.capabilities.untrustedWorkspaces.description, /Restricted Mode.*ascend-lsp\.path setting is ignored until you trust it/);
  assert.equal(pkg.capabilities.virtualWorkspaces, false);
  assert.deepEqual(pkg.activationEvents, [
    'onLanguage:python', 'onLanguage:pip-requirements', 'onLanguage:toml', 'onLanguage:cuda-cpp', 'onLanguage:cpp', 'onLanguage:c',
  ]);
  assert.deepEqual(Object.keys(pkg.contributes.configuration.properties), [
    'ascend-lsp.path', 'ascend-lsp.target.chip', 'ascend-lsp.target.torchNpu', 'ascend-lsp.target.mindiesd',
    'ascend-lsp.select', 'ascend-lsp.ignore', 'ascend-lsp.lang', 'ascend-lsp.trace.server',
  ]);
  assert.deepEqual(pkg.contributes.configuration.properties['ascend-lsp.target.chip'].enum, ['910B', 'A3', '910A', '310P']);
  assert.deepEqual(pkg.contributes.commands.map((c) => `${c.category}: ${c.title} = ${c.command}`), [
    'Ascend: Generate Migration Report = ascend-lsp.generateReport',
    'Ascend: Fix All Safe Issues = ascend-lsp.fixAll',
    'Ascend: Restart Server = ascend-lsp.restart',
  ]);
  // The server registers ascend.* commands itself (vscode-languageclient
  // turns them into VS Code commands): ours must not collide.
  assert.ok(pkg.contributes.commands.every((c) => !c.command.startsWith('ascend.')));
  const lock = JSON.parse(fs.readFileSync(path.join(EXT_DIR, 'package-lock.json'), 'utf8'));
  assert.equal(lock.packages['node_modules/vscode-languageclient'].version, pkg.dependencies['vscode-languageclient']);
  assert.equal(lock.packages['node_modules/@vscode/vsce'].version, pkg.devDependencies['@vscode/vsce']);
});

test('the pinned vscode-languageclient has the API the extension calls', () => {
  const lib = path.join(EXT_DIR, 'node_modules', 'vscode-languageclient');
  assert.ok(fs.existsSync(lib), `${lib} is missing: run make deps`);
  // Load the real library against the permissive vscode stub, in a scope
  // of its own so that the tests above keep the test client.
  const saved = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return path.join(__dirname, 'stubs', 'vscode-loose.js');
    return resolve.call(this, request, ...rest);
  };
  let real;
  try {
    real = require(path.join(lib, 'node'));
  } finally {
    Module._resolveFilename = saved;
  }
  assert.equal(typeof real.LanguageClient, 'function');
  for (const m of ['start', 'stop', 'sendRequest', 'onProgress']) {
    assert.equal(typeof real.LanguageClient.prototype[m], 'function', `LanguageClient.prototype.${m}`);
  }
  assert.equal(real.ExecuteCommandRequest.type.method, 'workspace/executeCommand');
  assert.equal(typeof real.WorkDoneProgress.type, 'object');
  // The window middleware hook the report command relies on.
  const client = fs.readFileSync(path.join(lib, 'lib', 'common', 'client.js'), 'utf8');
  assert.match(client, /middleware\.window\?\.showDocument|window\.showDocument/);
  assert.match(client, /protocol2CodeConverter/);
});

test('activation: commands registered, server found through the setting and started with the settings', async (t) => {
  const { context, ext } = setup(t, {
    'ascend-lsp.path': BIN, 'ascend-lsp.target.chip': '310P', 'ascend-lsp.ignore': ['ASC6'], 'ascend-lsp.lang': 'zh',
  });
  await ext.activate(context);
  assert.deepEqual([...vscode._test.commands.keys()].sort(), ['ascend-lsp.fixAll', 'ascend-lsp.generateReport', 'ascend-lsp.restart']);
  assert.equal(lc._instances.length, 1);
  const c = lc._instances[0];
  assert.equal(c.id, 'ascend-lsp');
  assert.deepEqual(c.serverOptions, { command: BIN, args: [], options: { cwd: vscode._test.state.workspaceFolders[0].uri.fsPath } });
  assert.deepEqual(c.clientOptions.initializationOptions, {
    select: [], ignore: ['ASC6'], target: { chip: '310P', torchNpu: '2.7.1', mindiesd: false }, lang: 'zh',
  });
  assert.deepEqual(c.clientOptions.synchronize, { configurationSection: 'ascend-lsp' });
  assert.deepEqual(c.clientOptions.documentSelector.map((s) => s.language || s.pattern), [
    'python', 'python', 'pip-requirements', '**/requirements*.txt', 'toml', 'cuda-cpp', 'cpp', 'c',
  ]);
  assert.equal(c.initializeResult.serverInfo.name, 'ascend-lsp');
  assert.ok(vscode._test.state.output.lines.includes(`[discovery] using ascend-lsp 0.1.0 (setting): ${BIN}`));
  assert.deepEqual(calls('window.showErrorMessage'), []);
});

test('activation without a binary: a clear error offering the setting, and no client', async (t) => {
  const { context, ext } = setup(t, { 'ascend-lsp.path': '' });
  const savedPath = process.env.PATH;
  process.env.PATH = '/nonexistent-dir';
  t.after(() => { process.env.PATH = savedPath; });
  vscode._test.state.messageAnswer = 'Open Settings';
  await ext.activate(context);
  assert.equal(lc._instances.length, 0);
  const errs = calls('window.showErrorMessage');
  assert.equal(errs.length, 1);
  assert.equal(errs[0][0], 'Ascend: The ascend-lsp binary was not found: it is not on PATH and this extension has no bundled binary. ' +
    'Build it (`make` in the ascend-lsp repository) and set "ascend-lsp.path" to build/ascend-lsp, ' +
    'put it on PATH, or install the .vsix built by `make vsix`, which bundles it.');
  assert.equal(errs[0][1], 'Open Settings');
  await until(() => calls('commands.executeCommand').length > 0, 'the settings to open');
  assert.deepEqual(calls('commands.executeCommand')[0], ['workbench.action.openSettings', 'ascend-lsp.path']);
  // Commands still exist and say why they cannot run.
  vscode._test.state.messageAnswer = undefined;
  assert.equal(await vscode.commands.executeCommand('ascend-lsp.generateReport'), undefined);
  assert.equal(calls('window.showErrorMessage').at(-1)[0],
    'Ascend: the ascend-lsp server is not running (see the "Ascend NPU Migration" output)');
});

test('activation with the bundled binary in the extension\'s bin/', async (t) => {
  const { context, ext, extDir } = setup(t, {});
  fs.mkdirSync(path.join(extDir, 'bin'));
  fs.copyFileSync(BIN, path.join(extDir, 'bin', 'ascend-lsp'));
  fs.chmodSync(path.join(extDir, 'bin', 'ascend-lsp'), 0o755);
  const savedPath = process.env.PATH;
  process.env.PATH = '/nonexistent-dir';
  t.after(() => { process.env.PATH = savedPath; });
  await ext.activate(context);
  assert.equal(lc._instances.length, 1);
  assert.equal(lc._instances[0].serverOptions.command, path.join(extDir, 'bin', 'ascend-lsp'));
  assert.equal(lc._instances[0].initializeResult.serverInfo.version, '0.1.0');
});

test('"Ascend: Generate Migration Report": progress, then the Markdown preview of the report', async (t) => {
  const { dir, context, ext } = setup(t, { 'ascend-lsp.path': BIN });
  await ext.activate(context);
  const result = await vscode.commands.executeCommand('ascend-lsp.generateReport');
  assert.deepEqual(calls('window.showErrorMessage'), []);
  const report = path.join(dir, 'ascend-migration-report.md');
  assert.equal(result.path, report);
  assert.match(fs.readFileSync(report, 'utf8'), /^# /);
  const req = lc._instances[0].requests;
  // (the only token the server creates is the project model's, at startup)
  assert.deepEqual(req.filter((r) => r.method === 'window/workDoneProgress/create').map((r) => r.params.token.replace(/[0-9]+$/, '')),
    ['ascend-model-']);
  const progress = calls('window.withProgress');
  assert.equal(progress.length, 1);
  assert.equal(progress[0][0].title, 'Ascend: generating the migration report');
  // The server's $/progress on the request's workDoneToken reached the
  // notification.
  assert.deepEqual(progress[0][1][0], { message: 'scanning the workspace' });
  assert.ok(progress[0][1].length >= 2, JSON.stringify(progress[0][1]));
  // The preview opens beside the source, which keeps its tab.
  const opened = calls('commands.executeCommand').filter((a) => /^markdown\.|^vscode\.open/.test(a[0]));
  assert.deepEqual(opened.map((a) => [a[0], a[1].toString()]), [['markdown.showPreviewToSide', fileUri(report)]]);
  // The server's window/showDocument for the report arrives while the
  // command is still in flight and is absorbed by the middleware: the report
  // opens once. (A round trip first: anything the server sent before its
  // answer to it has been handled.)
  await lc._instances[0].sendRequest('workspace/executeCommand', { command: 'ascend.none' }).catch(() => {});
  assert.equal(req.filter((r) => r.method === 'window/showDocument').length, 1);
  assert.deepEqual(calls('languageclient.showDocument'), []);
});

test('"Ascend: Fix All Safe Issues": the server\'s workspace/applyEdit reaches workspace.applyEdit', async (t) => {
  const { dir, context, ext } = setup(t, { 'ascend-lsp.path': BIN });
  await ext.activate(context);
  const file = path.join(dir, 'train.py');
  const uri = vscode.Uri.file(file);
  lc._instances[0].openDocument(uri.toString(), 'python', fs.readFileSync(file, 'utf8'));
  vscode._test.state.activeTextEditor = { document: { uri } };
  const r = await vscode.commands.executeCommand('ascend-lsp.fixAll');
  assert.equal(r, true);
  await until(() => calls('workspace.applyEdit').length === 1, 'workspace.applyEdit');
  const edits = calls('workspace.applyEdit')[0][0].changes[uri.toString()];
  assert.deepEqual(edits.map((e) => e.newText), ['import torch_npu\n', 'npu as cuda', 'npu', 'npu', 'th.npu']);
});

test('"Ascend: Restart Server" stops the server cleanly and starts a new one', async (t) => {
  const { context, ext } = setup(t, { 'ascend-lsp.path': BIN });
  await ext.activate(context);
  const first = lc._instances[0];
  await vscode.commands.executeCommand('ascend-lsp.restart');
  assert.equal(lc._instances.length, 2);
  assert.deepEqual(first.exitStatus, { code: 0, signal: null });
  assert.equal(lc._instances[1].state, 'running');
  // Changing ascend-lsp.path restarts too; other settings do not.
  vscode._test.fireConfigurationChange(['ascend-lsp.target.chip', 'ascend-lsp.target']);
  vscode._test.fireConfigurationChange(['ascend-lsp.path']);
  await until(() => lc._instances.length === 3 && lc._instances[2].state === 'running', 'the restart after a path change');
  assert.equal(lc._instances[1].exitStatus.code, 0);
  // Trusting the folder restarts too: its own ascend-lsp.path, ignored in
  // Restricted Mode, now counts.
  vscode._test.grantTrust();
  await until(() => lc._instances.length === 4 && lc._instances[3].state === 'running', 'the restart after the folder is trusted');
});

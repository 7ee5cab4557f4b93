'use strict';
// The whole conversation VS Code holds with ascend-lsp, on VS Code's own
// protocol stack: initialize, initialized, didOpen, diagnostics, incremental
// didChange, codeAction, settings, executeCommand with progress, shutdown,
// exit. Positions and texts are compared exactly.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Session, vscodeCapabilities, fileUri, applyEdits, brief, lsp, resolveRuleLink } = require('./lsp-client');

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const RULES_MD = path.resolve(__dirname, '..', '..', '..', 'docs', 'rules.md');
const TIMEOUT = { timeout: 60000 };

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-editors-'));
  fs.cpSync(path.join(FIXTURES, 'project'), dir, { recursive: true });
  return dir;
}

const TRAIN_DIAGS = [
  '7:26-7:34 ASC204',
  '8:18-8:24 ASC203',
  '12:4-12:23 ASC201',
  '13:4-13:20 ASC201',
];

test('VS Code-like session: sync, diagnostics, quick fix, settings, report, shutdown', TIMEOUT, async (t) => {
  const dir = workspace();
  const file = path.join(dir, 'train.py');
  const uri = fileUri(file);
  const original = fs.readFileSync(file, 'utf8');
  // vscode-languageclient appends --stdio when the transport is set explicitly.
  const s = new Session(['--stdio']);
  t.after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });
  let text = original;
  let version = 1;

  await t.test('initialize answers the capabilities VS Code relies on', async () => {
    const r = await s.initialize(dir, vscodeCapabilities(['utf-16']));
    const c = r.capabilities;
    assert.equal(c.positionEncoding, 'utf-16');
    assert.deepEqual(c.textDocumentSync, { openClose: true, change: 2, save: { includeText: false } });
    assert.deepEqual(c.codeActionProvider.codeActionKinds, ['quickfix', 'source.fixAll.ascend', 'source.ascend.transferToNpu']);
    assert.equal(c.hoverProvider, true);
    assert.deepEqual(c.executeCommandProvider.commands, ['ascend.generateReport', 'ascend.fixAll']);
    assert.deepEqual(r.serverInfo, { name: 'ascend-lsp', version: '0.1.0' });
  });

  await t.test('initialized: the server registers its config-file and Python-file watchers dynamically', async () => {
    const reg = await s.waitFor((m) => m.request && m.method === 'client/registerCapability', 'client/registerCapability');
    const watchers = reg.params.registrations[0].registerOptions.watchers.map((w) => w.globPattern);
    assert.equal(reg.params.registrations[0].method, 'workspace/didChangeWatchedFiles');
    assert.deepEqual(watchers, ['**/pyproject.toml', '**/.ascend-lsp.toml', '**/*.py', '**/*.{yaml,yml}']);
  });

  await t.test('didOpen publishes the exact diagnostics with the document version', async () => {
    s.notify(lsp.DidOpenTextDocumentNotification.method, { textDocument: { uri, languageId: 'python', version, text } });
    const p = await s.diagnostics(uri, 1);
    assert.deepEqual(brief(p.diagnostics), TRAIN_DIAGS);
    const d = p.diagnostics[2];
    assert.equal(d.source, 'ascend-lsp');
    assert.equal(d.severity, lsp.DiagnosticSeverity.Warning);
    assert.equal(d.message, 'CUDA-only API torch.cuda.synchronize; on Ascend use torch.npu.synchronize');
    // Rule links lead to the rule's section of the docs beside the binary.
    assert.deepEqual(resolveRuleLink(d.codeDescription.href), { file: RULES_MD, heading: 'ASC201 torch-cuda-api' });
    for (const x of p.diagnostics) {
      assert.equal(resolveRuleLink(x.codeDescription.href).heading, `${x.code} ${x.codeDescription.href.split('#')[1].slice(7)}`);
    }
  });

  await t.test('incremental didChange: diagnostics move with the new version', async () => {
    // Insert two lines after the docstring (as typing would), version 2.
    const change = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '# header\n\n' };
    text = applyEdits(text, [change]);
    version = 2;
    s.notify(lsp.DidChangeTextDocumentNotification.method, { textDocument: { uri, version }, contentChanges: [change] });
    const p = await s.diagnostics(uri, 2);
    assert.deepEqual(brief(p.diagnostics), ['9:26-9:34 ASC204', '10:18-10:24 ASC203', '14:4-14:23 ASC201', '15:4-15:20 ASC201']);
    // Two changes in one notification: remove the header again, then turn
    // "cuda:0" into "cuda:1" (positions of the second refer to the text
    // after the first, as the protocol says).
    const changes = [
      { range: { start: { line: 1, character: 0 }, end: { line: 3, character: 0 } }, text: '' },
      { range: { start: { line: 7, character: 32 }, end: { line: 7, character: 33 } }, text: '1' },
    ];
    for (const c of changes) text = applyEdits(text, [c]);
    version = 3;
    s.notify(lsp.DidChangeTextDocumentNotification.method, { textDocument: { uri, version }, contentChanges: changes });
    const q = await s.diagnostics(uri, 3);
    assert.deepEqual(brief(q.diagnostics), TRAIN_DIAGS);
    assert.equal(q.diagnostics[0].message, 'CUDA device string "cuda:1"; on Ascend use "npu:1"');
  });

  await t.test('hover on a flagged call explains the rule', async () => {
    const h = await s.request(lsp.HoverRequest.method, { textDocument: { uri }, position: { line: 12, character: 10 } });
    assert.equal(h.contents.kind, 'markdown');
    assert.match(h.contents.value, /ASC201/);
    assert.match(h.contents.value, /torch\.npu\.synchronize/);
    assert.deepEqual(h.range, { start: { line: 12, character: 4 }, end: { line: 12, character: 23 } });
  });

  await t.test('codeAction: the preferred quick fix has the exact edit, and applying it clears the finding', async () => {
    const p = await s.diagnostics(uri, version);
    const diag = p.diagnostics[2];
    const actions = await s.request(lsp.CodeActionRequest.method, {
      textDocument: { uri },
      range: diag.range,
      context: { diagnostics: [diag], triggerKind: lsp.CodeActionTriggerKind.Invoked },
    });
    const titles = actions.map((a) => `${a.kind}: ${a.title}${a.isPreferred ? ' (preferred)' : ''}`);
    assert.deepEqual(titles, [
      'quickfix: Replace with torch.npu.synchronize (preferred)',
      'quickfix: Disable ASC201 for this line',
      'source.fixAll.ascend: Fix all safe Ascend migration issues',
    ]);
    const fix = actions[0];
    assert.deepEqual(fix.edit, {
      changes: {
        [uri]: [
          { range: { start: { line: 12, character: 4 }, end: { line: 12, character: 11 } }, newText: 'th.npu' },
          { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, newText: 'import torch_npu\n' },
        ],
      },
    });
    assert.deepEqual(fix.diagnostics.map((d) => d.code), ['ASC201']);
    assert.deepEqual(actions[1].edit.changes[uri], [
      { range: { start: { line: 12, character: 25 }, end: { line: 12, character: 25 } }, newText: '  # noqa: ASC201' },
    ]);
    // Apply it the way VS Code does: edit the buffer, then send the edits as
    // incremental changes (last position first).
    const edits = fix.edit.changes[uri];
    const next = applyEdits(text, edits);
    const lines = next.split('\n');
    assert.equal(lines[2], 'import torch_npu');
    assert.equal(lines[13], '    th.npu.synchronize()');
    const changes = [...edits]
      .sort((a, b) => (b.range.start.line - a.range.start.line) || (b.range.start.character - a.range.start.character))
      .map((e) => ({ range: e.range, text: e.newText }));
    let check = text;
    for (const c of changes) check = applyEdits(check, [c]);
    assert.equal(check, next);
    text = next;
    version = 4;
    s.notify(lsp.DidChangeTextDocumentNotification.method, { textDocument: { uri, version }, contentChanges: changes });
    const q = await s.diagnostics(uri, 4);
    assert.deepEqual(brief(q.diagnostics), ['8:26-8:34 ASC204', '9:18-9:24 ASC203', '14:4-14:20 ASC201']);
  });

  await t.test('didChangeConfiguration in VS Code\'s shape filters the diagnostics', async () => {
    s.notify(lsp.DidChangeConfigurationNotification.method, {
      settings: { 'ascend-lsp': { path: '', select: [], ignore: ['ASC203'], target: { chip: '910B', torchNpu: '2.7.1', mindiesd: false }, lang: 'en', trace: { server: 'off' } } },
    });
    const p = await s.waitFor(
      (m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && m.params.version === version &&
        !m.params.diagnostics.some((d) => d.code === 'ASC203'),
      'diagnostics without ASC203',
    );
    assert.deepEqual(brief(p.params.diagnostics), ['8:26-8:34 ASC204', '14:4-14:20 ASC201']);
    s.notify(lsp.DidChangeConfigurationNotification.method, { settings: { 'ascend-lsp': { select: [], ignore: [] } } });
    const q = await s.waitFor(
      (m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && m.params.diagnostics.length === 3,
      'diagnostics with ASC203 again', undefined, { includePast: false },
    );
    assert.deepEqual(brief(q.params.diagnostics), ['8:26-8:34 ASC204', '9:18-9:24 ASC203', '14:4-14:20 ASC201']);
  });

  await t.test('executeCommand ascend.fixAll: the server asks the client to apply the safe fixes', async () => {
    const r = await s.request(lsp.ExecuteCommandRequest.method, { command: 'ascend.fixAll', arguments: [uri] });
    assert.equal(r, true);
    const req = await s.waitFor((m) => m.request && m.method === 'workspace/applyEdit', 'workspace/applyEdit');
    const fixed = applyEdits(text, req.params.edit.changes[uri]);
    assert.equal(fixed, [
      '"""Tiny training step used by the editor-client tests."""',
      'import torch',
      'import torch_npu',
      'import torch as th',
      'from torch import npu as cuda',
      '',
      '',
      'def step(model, batch):',
      '    device = torch.device("npu:1")',
      '    model = model.npu()',
      '    batch = batch.to(device)',
      '    loss = model(batch).sum()',
      '    loss.backward()',
      '    th.npu.synchronize()',
      '    cuda.utilization()',
      '    return loss',
      '',
    ].join('\n'));
  });

  await t.test('executeCommand ascend.generateReport reports $/progress begin..end and answers the path', async () => {
    const token = 'ascend-report-1';
    const result = await s.request(lsp.ExecuteCommandRequest.method,
      { command: 'ascend.generateReport', arguments: [], workDoneToken: token }, 30000);
    const report = path.join(dir, 'ascend-migration-report.md');
    assert.equal(result.path, report);
    assert.equal(result.uri, fileUri(report));
    assert.equal(typeof result.summary, 'object');
    await s.waitFor((m) => m.method === '$/progress' && m.params.token === token && m.params.value.kind === 'end', 'progress end');
    const kinds = s.notifications.filter((m) => m.method === '$/progress' && m.params.token === token).map((m) => m.params.value.kind);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds[kinds.length - 1], 'end');
    assert.ok(kinds.slice(1, -1).every((k) => k === 'report'), kinds.join(','));
    assert.match(fs.readFileSync(report, 'utf8'), /^# .*Ascend NPU Migration Assessment\n/);
    const show = await s.waitFor((m) => m.request && m.method === 'window/showDocument', 'window/showDocument');
    assert.equal(show.params.uri, result.uri);
  });

  await t.test('shutdown then exit: the server exits with code 0', async () => {
    const { code, signal } = await s.shutdown();
    assert.equal(signal, null);
    assert.equal(code, 0);
  });
});

test('utf-8 position encoding: offsets after CJK and emoji are in bytes', TIMEOUT, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-editors-'));
  fs.copyFileSync(path.join(FIXTURES, 'utf8.py'), path.join(dir, 'utf8.py'));
  const uri = fileUri(path.join(dir, 'utf8.py'));
  const s = new Session();
  t.after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });
  const r = await s.initialize(dir, vscodeCapabilities(['utf-8', 'utf-16']));
  assert.equal(r.capabilities.positionEncoding, 'utf-8');
  const text = fs.readFileSync(path.join(dir, 'utf8.py'), 'utf8');
  s.notify(lsp.DidOpenTextDocumentNotification.method, { textDocument: { uri, languageId: 'python', version: 7, text } });
  const p = await s.diagnostics(uri, 7);
  // '    msg = "训练🚀"; ' is 24 bytes (18 UTF-16 units).
  assert.deepEqual(brief(p.diagnostics), ['4:24-4:46 ASC201']);
  const actions = await s.request(lsp.CodeActionRequest.method, {
    textDocument: { uri }, range: p.diagnostics[0].range, context: { diagnostics: p.diagnostics, only: ['quickfix'] },
  });
  assert.deepEqual(actions[0].edit.changes[uri][0], { range: { start: { line: 4, character: 24 }, end: { line: 4, character: 34 } }, newText: 'torch.npu' });
  // An incremental change addressed in UTF-8 bytes: replace "🚀" (bytes 17..21).
  s.notify(lsp.DidChangeTextDocumentNotification.method, {
    textDocument: { uri, version: 8 },
    contentChanges: [{ range: { start: { line: 4, character: 17 }, end: { line: 4, character: 21 } }, text: 'x' }],
  });
  const q = await s.diagnostics(uri, 8);
  assert.deepEqual(brief(q.diagnostics), ['4:21-4:43 ASC201']);
  const { code } = await s.shutdown();
  assert.equal(code, 0);
});

test('utf-16 position encoding (the default): the same line in UTF-16 code units', TIMEOUT, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascend-editors-'));
  fs.copyFileSync(path.join(FIXTURES, 'utf8.py'), path.join(dir, 'utf8.py'));
  const uri = fileUri(path.join(dir, 'utf8.py'));
  const s = new Session();
  t.after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });
  const r = await s.initialize(dir, vscodeCapabilities(undefined));
  assert.equal(r.capabilities.positionEncoding, 'utf-16');
  s.notify(lsp.DidOpenTextDocumentNotification.method, {
    textDocument: { uri, languageId: 'python', version: 1, text: fs.readFileSync(path.join(dir, 'utf8.py'), 'utf8') },
  });
  const p = await s.diagnostics(uri, 1);
  assert.deepEqual(brief(p.diagnostics), ['4:18-4:40 ASC201']);
  const { code } = await s.shutdown();
  assert.equal(code, 0);
});

test('generateReport without a token: server-created progress, json format to an explicit output', TIMEOUT, async (t) => {
  const dir = workspace();
  const out = path.join(dir, 'reports', 'assessment.json');
  fs.mkdirSync(path.dirname(out));
  const s = new Session();
  t.after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });
  // A client without window/showDocument: the server must not send it.
  const caps = vscodeCapabilities(['utf-16']);
  delete caps.window.showDocument;
  await s.initialize(dir, caps);
  const result = await s.request(lsp.ExecuteCommandRequest.method,
    { command: 'ascend.generateReport', arguments: [{ format: 'json', output: out }] }, 30000);
  assert.equal(result.path, out);
  assert.equal(result.uri, fileUri(out));
  // (the project model's build at startup has its own token)
  const create = await s.waitFor((m) => m.request && m.method === 'window/workDoneProgress/create' &&
    m.params.token.startsWith('ascend-report'), 'window/workDoneProgress/create');
  const token = create.params.token;
  await s.waitFor((m) => m.method === '$/progress' && m.params.token === token && m.params.value.kind === 'end', 'progress end');
  const kinds = s.notifications.filter((m) => m.method === '$/progress' && m.params.token === token).map((m) => m.params.value.kind);
  assert.equal(kinds[0], 'begin');
  assert.equal(kinds[kinds.length - 1], 'end');
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(typeof report, 'object');
  assert.equal(s.requests.some((r) => r.method === 'window/showDocument'), false);
  const { code } = await s.shutdown();
  assert.equal(code, 0);
});

test('generateReport: the progress the server created ends even when the client accepts it late', TIMEOUT, async (t) => {
  const dir = workspace();
  const s = new Session();
  t.after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });
  await s.initialize(dir, vscodeCapabilities(['utf-16']));
  // The report of this small project is done long before the answer.
  s.answerDelay['window/workDoneProgress/create'] = 500;
  const result = await s.request(lsp.ExecuteCommandRequest.method,
    { command: 'ascend.generateReport', arguments: [{ format: 'json', output: path.join(dir, 'r.json') }] }, 30000);
  assert.equal(result.path, path.join(dir, 'r.json'));
  const create = s.requests.find((r) => r.method === 'window/workDoneProgress/create' && r.params.token.startsWith('ascend-report'));
  assert.ok(create, 'window/workDoneProgress/create');
  const kinds = s.notifications.filter((m) => m.method === '$/progress' && m.params.token === create.params.token)
    .map((m) => m.params.value.kind);
  assert.equal(kinds[0], 'begin');
  assert.equal(kinds[kinds.length - 1], 'end');
  const { code } = await s.shutdown();
  assert.equal(code, 0);
});

test('every served file type, with the language ids VS Code uses', TIMEOUT, async (t) => {
  const dir = workspace();
  const s = new Session();
  t.after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });
  await s.initialize(dir, vscodeCapabilities(['utf-16']));
  const cases = [
    ['requirements.txt', 'pip-requirements', ['0:18-0:56 ASC106', '1:0-1:18 ASC105', '2:0-2:11 ASC104', '3:0-3:17 ASC101']],
    ['pyproject.toml', 'toml', ['3:17-3:27 ASC103', '3:31-3:47 ASC101']],
    ['csrc/add.cu', 'cuda-cpp', ['2:16-2:19 ASC401']],
  ];
  for (const [name, languageId] of cases) {
    const uri = fileUri(path.join(dir, name));
    s.notify(lsp.DidOpenTextDocumentNotification.method, {
      textDocument: { uri, languageId, version: 1, text: fs.readFileSync(path.join(dir, name), 'utf8') },
    });
  }
  for (const [name, , want] of cases) {
    const p = await s.diagnostics(fileUri(path.join(dir, name)), 1);
    assert.deepEqual(brief(p.diagnostics), want, name);
    for (const d of p.diagnostics) {
      const r = resolveRuleLink(d.codeDescription.href);
      assert.equal(r.file, RULES_MD, d.codeDescription.href);
      assert.ok(r.heading && r.heading.startsWith(`${d.code} `), `${d.codeDescription.href} leads to no heading`);
    }
  }
  const cu = (await s.diagnostics(fileUri(path.join(dir, 'csrc/add.cu')), 1)).diagnostics;
  assert.equal(cu[0].severity, lsp.DiagnosticSeverity.Error);
  // the launch, the header and the three runtime calls of a kernel file are its kernel finding's related locations
  assert.deepEqual(cu[0].relatedInformation.map((r) => r.location.range.start.line), [10, 0, 9, 11, 12]);
  // Closing a document clears its diagnostics.
  const req = fileUri(path.join(dir, 'requirements.txt'));
  s.notify(lsp.DidCloseTextDocumentNotification.method, { textDocument: { uri: req } });
  const cleared = await s.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === req &&
    m.params.diagnostics.length === 0, 'cleared diagnostics');
  assert.deepEqual(cleared.params.diagnostics, []);
  const { code } = await s.shutdown();
  assert.equal(code, 0);
});

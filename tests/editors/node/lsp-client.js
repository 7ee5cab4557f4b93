'use strict';
// A minimal LSP client on the protocol stack VS Code's language client uses
// (vscode-jsonrpc + vscode-languageserver-protocol), for driving the real
// ascend-lsp binary over stdio. Everything the server sends is recorded;
// waits are bounded and the server is killed when a test ends.
const cp = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const { pathToFileURL, fileURLToPath } = require('node:url');
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol');

const BIN = path.resolve(process.env.BIN || path.join(__dirname, '..', '..', '..', 'build', 'ascend-lsp'));
const WAIT_MS = Number(process.env.LSP_WAIT_MS || 8000);

// The client capabilities VS Code 1.9x sends through vscode-languageclient 9
// (the parts a server can act on).
function vscodeCapabilities(positionEncodings = ['utf-16']) {
  return {
    workspace: {
      applyEdit: true,
      workspaceEdit: {
        documentChanges: true,
        resourceOperations: ['create', 'rename', 'delete'],
        failureHandling: 'textOnlyTransactional',
        normalizesLineEndings: true,
        changeAnnotationSupport: { groupsOnLabel: true },
      },
      configuration: true,
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      didChangeConfiguration: { dynamicRegistration: true },
      symbol: { dynamicRegistration: true },
      codeLens: { refreshSupport: true },
      executeCommand: { dynamicRegistration: true },
      workspaceFolders: true,
      semanticTokens: { refreshSupport: true },
      diagnostics: { refreshSupport: true },
    },
    textDocument: {
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: false,
        tagSupport: { valueSet: [1, 2] },
        codeDescriptionSupport: true,
        dataSupport: true,
      },
      synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
      hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
      codeAction: {
        dynamicRegistration: true,
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ['edit'] },
        codeActionLiteralSupport: {
          codeActionKind: {
            valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite',
              'source', 'source.organizeImports'],
          },
        },
        honorsChangeAnnotations: false,
      },
    },
    window: {
      showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
      showDocument: { support: true },
      workDoneProgress: true,
    },
    general: {
      staleRequestSupport: {
        cancel: true,
        retryOnContentModified: ['textDocument/semanticTokens/full', 'textDocument/semanticTokens/range'],
      },
      regularExpressions: { engine: 'ECMAScript', version: 'ES2020' },
      markdown: { parser: 'marked', version: '1.1.0' },
      positionEncodings,
    },
  };
}

function fileUri(p) {
  return pathToFileURL(p).href;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

class Session {
  constructor(args = []) {
    this.proc = cp.spawn(BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => resolve({ code, signal }));
      this.proc.on('error', (err) => resolve({ code: null, signal: null, error: err }));
    });
    this.conn = rpc.createMessageConnection(
      new rpc.StreamMessageReader(this.proc.stdout),
      new rpc.StreamMessageWriter(this.proc.stdin),
    );
    this.notifications = []; // {method, params} in arrival order
    this.requests = []; // server-to-client requests
    this.waiters = [];
    this.conn.onNotification((method, params) => this._record({ method, params }));
    // vscode-jsonrpc routes $/progress to progress handlers, never to
    // onNotification; tokens without a handler arrive here.
    this.conn.onUnhandledProgress((params) => this._record({ method: '$/progress', params }));
    this.answerDelay = {}; // method -> ms before the answer to a server request
    this.conn.onRequest(async (method, params) => {
      this.requests.push({ method, params });
      this._record({ method, params, request: true });
      if (this.answerDelay[method]) await new Promise((r) => setTimeout(r, this.answerDelay[method]));
      if (method === 'workspace/applyEdit') return { applied: true };
      if (method === 'window/showDocument') return { success: true };
      if (method === 'workspace/configuration') return (params.items || []).map(() => null);
      return null; // client/registerCapability, window/workDoneProgress/create
    });
    this.conn.onError(() => {});
    this.conn.onClose(() => {});
    this.conn.listen();
  }

  _record(msg) {
    if (!msg.request) this.notifications.push(msg);
    for (const w of [...this.waiters]) {
      if (w.pred(msg)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(msg);
      }
    }
  }

  // Resolves with the first message (already received or future) matching pred.
  waitFor(pred, what, ms = WAIT_MS, { includePast = true } = {}) {
    if (includePast) {
      const seen = [...this.notifications, ...this.requests.map((r) => ({ ...r, request: true }))].find(pred);
      if (seen) return Promise.resolve(seen);
    }
    const p = new Promise((resolve) => this.waiters.push({ pred, resolve }));
    return withTimeout(p, ms, what);
  }

  // The diagnostics published for uri with exactly this document version.
  async diagnostics(uri, version, ms = WAIT_MS) {
    const m = await this.waitFor(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === version,
      `diagnostics of ${path.basename(uri)} version ${version}`, ms,
    );
    return m.params;
  }

  request(method, params, ms = WAIT_MS) {
    return withTimeout(this.conn.sendRequest(method, params), ms, method);
  }

  notify(method, params) {
    return this.conn.sendNotification(method, params);
  }

  async initialize(rootDir, capabilities, initializationOptions) {
    const params = {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code', version: '1.95.0' },
      locale: 'en',
      rootPath: rootDir,
      rootUri: fileUri(rootDir),
      capabilities,
      trace: 'off',
      workspaceFolders: [{ uri: fileUri(rootDir), name: path.basename(rootDir) }],
    };
    if (initializationOptions !== undefined) params.initializationOptions = initializationOptions;
    const result = await this.request(lsp.InitializeRequest.method, params);
    this.notify(lsp.InitializedNotification.method, {});
    return result;
  }

  async shutdown() {
    await this.request(lsp.ShutdownRequest.method, undefined);
    this.notify(lsp.ExitNotification.method, undefined);
    return withTimeout(this.exited, WAIT_MS, 'the server to exit');
  }

  kill() {
    try { this.conn.dispose(); } catch { /* already closed */ }
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

// Applies LSP TextEdits or content changes (UTF-16 positions, as JS strings
// are) to text.
function applyEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const off = (p) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
  const sorted = edits
    .map((e, i) => ({ a: off(e.range.start), b: off(e.range.end), t: e.newText ?? e.text, i }))
    .sort((x, y) => (y.a - x.a) || (y.i - x.i));
  let out = text;
  for (const e of sorted) out = out.slice(0, e.a) + e.t + out.slice(e.b);
  return out;
}

// "line:char-line:char CODE" for compact exact comparisons.
function brief(diags) {
  return diags.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`);
}

/** The anchor GitHub and VS Code's Markdown preview give a heading. */
function headingAnchor(h) {
  return h.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Where a rule link (codeDescription.href) leads: { file, heading } when it
 * is a file URI of a readable Markdown file with a heading of its anchor
 * (heading: that heading's text), else { file, heading: undefined }. */
function resolveRuleLink(href) {
  const u = new URL(href);
  if (u.protocol !== 'file:') return { file: undefined, heading: undefined };
  const file = fileURLToPath(u);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const heading = text.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, ''))
    .find((h) => headingAnchor(h) === decodeURIComponent(u.hash.slice(1)));
  return { file, heading };
}

module.exports = { BIN, Session, vscodeCapabilities, fileUri, applyEdits, brief, withTimeout, lsp, resolveRuleLink };

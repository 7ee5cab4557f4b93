'use strict';
// Stands in for `vscode-languageclient/node` when the extension runs under
// the `vscode` stub: a LanguageClient with the same constructor and the
// methods the extension calls, talking to the real server it is given over
// vscode-jsonrpc (the library vscode-languageclient is built on), with VS
// Code's client capabilities. Server-to-client requests are routed the way
// vscode-languageclient routes them (applyEdit to workspace.applyEdit,
// showDocument through the window middleware).
const cp = require('node:child_process');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');
const protocol = require('vscode-languageserver-protocol/node');
const vscode = require('./vscode');
const { vscodeCapabilities, withTimeout } = require('../lsp-client');

const instances = [];

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.id = id;
    this.name = name;
    this.serverOptions = serverOptions;
    this.clientOptions = clientOptions;
    this.state = 'stopped';
    this.requests = [];
    this.notifications = [];
    instances.push(this);
    this.protocol2CodeConverter = { asWorkspaceEdit: async (e) => ({ converted: e }) };
  }

  async start() {
    const { command, args = [], options = {} } = this.serverOptions;
    this.proc = cp.spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.conn = rpc.createMessageConnection(new rpc.StreamMessageReader(this.proc.stdout), new rpc.StreamMessageWriter(this.proc.stdin));
    this.conn.onNotification((method, params) => this.notifications.push({ method, params }));
    this.conn.onRequest(async (method, params) => {
      this.requests.push({ method, params });
      if (method === 'workspace/applyEdit') return { applied: await vscode.workspace.applyEdit(params.edit) };
      if (method === 'window/showDocument') {
        const next = async (p) => { vscode._test.calls.push({ name: 'languageclient.showDocument', args: [p] }); return { success: true }; };
        const mw = this.clientOptions.middleware && this.clientOptions.middleware.window;
        return mw && mw.showDocument ? mw.showDocument(params, next) : next(params);
      }
      return null;
    });
    this.conn.onError(() => {});
    this.conn.listen();
    const folders = vscode.workspace.workspaceFolders;
    const root = folders && folders.length ? folders[0].uri : undefined;
    const result = await withTimeout(this.conn.sendRequest('initialize', {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code (stub)', version: '1.95.0' },
      rootPath: root ? root.fsPath : null,
      rootUri: root ? root.toString() : null,
      capabilities: vscodeCapabilities(['utf-16']),
      initializationOptions: this.clientOptions.initializationOptions,
      workspaceFolders: folders ? folders.map((f) => ({ uri: f.uri.toString(), name: path.basename(f.uri.fsPath) })) : null,
    }), 8000, 'initialize');
    this.initializeResult = result;
    this.conn.sendNotification('initialized', {});
    this.state = 'running';
  }

  // What VS Code does when a document matching the selector is opened.
  openDocument(uri, languageId, text, version = 1) {
    this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  sendRequest(type, params, token) {
    return this.conn.sendRequest(type, params, token);
  }

  onProgress(type, token, handler) {
    return this.conn.onProgress(type, token, handler);
  }

  async stop(timeout = 2000) {
    if (this.state !== 'running') return;
    this.state = 'stopping';
    try {
      await withTimeout(this.conn.sendRequest('shutdown'), timeout, 'shutdown');
      this.conn.sendNotification('exit');
      this.exitStatus = await withTimeout(this.exited, timeout, 'exit');
    } finally {
      this.state = 'stopped';
      this.kill();
    }
  }

  kill() {
    try { this.conn.dispose(); } catch { /* closed */ }
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

module.exports = { ...protocol, LanguageClient, _instances: instances };

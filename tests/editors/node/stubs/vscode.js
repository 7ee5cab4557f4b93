'use strict';
// A stub of the `vscode` module with just the API surface the ascend-lsp
// extension uses. Every call is recorded in `calls` for the tests; settings,
// the workspace folder, the active editor and message answers are set by
// the tests through `state`.
const path = require('node:path');
const { pathToFileURL, fileURLToPath } = require('node:url');

const calls = [];
const state = {
  settings: {}, // 'ascend-lsp.path' -> value
  workspaceFolders: undefined,
  activeTextEditor: undefined,
  messageAnswer: undefined, // what showErrorMessage & co. resolve with
};
const commands = new Map();
const configListeners = [];
const trustListeners = [];

class Uri {
  constructor(scheme, p) {
    this.scheme = scheme;
    this.path = p;
    this.fsPath = scheme === 'file' ? path.normalize(p) : p;
  }
  static file(p) { return new Uri('file', path.resolve(p)); }
  static parse(s) {
    if (s.startsWith('file:')) return new Uri('file', fileURLToPath(s));
    const i = s.indexOf(':');
    return new Uri(s.slice(0, i), s.slice(i + 1));
  }
  toString() { return this.scheme === 'file' ? pathToFileURL(this.path).href : `${this.scheme}:${this.path}`; }
}

function record(name, ...args) {
  calls.push({ name, args });
}

const vscode = {
  Uri,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ViewColumn: { Active: -1, Beside: -2 },
  workspace: {
    get workspaceFolders() { return state.workspaceFolders; },
    getConfiguration(section) {
      return {
        get(key, def) {
          const k = `${section}.${key}`;
          return Object.prototype.hasOwnProperty.call(state.settings, k) ? state.settings[k] : def;
        },
      };
    },
    onDidChangeConfiguration(fn) {
      configListeners.push(fn);
      return { dispose() { configListeners.splice(configListeners.indexOf(fn), 1); } };
    },
    onDidGrantWorkspaceTrust(fn) {
      trustListeners.push(fn);
      return { dispose() { trustListeners.splice(trustListeners.indexOf(fn), 1); } };
    },
    async applyEdit(edit) { record('workspace.applyEdit', edit); return true; },
  },
  window: {
    get activeTextEditor() { return state.activeTextEditor; },
    createOutputChannel(name) {
      const ch = { name, lines: [], appendLine(l) { ch.lines.push(l); }, append(l) { ch.lines.push(l); }, show() {}, dispose() {} };
      record('window.createOutputChannel', name);
      state.output = ch;
      return ch;
    },
    showErrorMessage(...a) { record('window.showErrorMessage', ...a); return Promise.resolve(state.messageAnswer); },
    showWarningMessage(...a) { record('window.showWarningMessage', ...a); return Promise.resolve(undefined); },
    showInformationMessage(...a) { record('window.showInformationMessage', ...a); return Promise.resolve(undefined); },
    async withProgress(options, task) {
      const reports = [];
      record('window.withProgress', options, reports);
      const token = { isCancellationRequested: false, onCancellationRequested() { return { dispose() {} }; } };
      return task({ report(v) { reports.push(v); } }, token);
    },
  },
  commands: {
    registerCommand(id, fn) {
      if (commands.has(id)) throw new Error(`command '${id}' already exists`);
      commands.set(id, fn);
      return { dispose() { commands.delete(id); } };
    },
    async executeCommand(id, ...args) {
      record('commands.executeCommand', id, ...args);
      const fn = commands.get(id);
      return fn ? fn(...args) : undefined;
    },
  },
  // test helpers (not part of the real API)
  _test: {
    calls,
    state,
    commands,
    fireConfigurationChange(keys) {
      const e = { affectsConfiguration: (s) => keys.some((k) => k === s || k.startsWith(`${s}.`)) };
      for (const fn of [...configListeners]) fn(e);
    },
    grantTrust() {
      for (const fn of [...trustListeners]) fn();
    },
    reset() {
      calls.length = 0;
      trustListeners.length = 0;
      commands.clear();
      configListeners.length = 0;
      state.settings = {};
      state.workspaceFolders = undefined;
      state.activeTextEditor = undefined;
      state.messageAnswer = undefined;
    },
  },
};

module.exports = vscode;

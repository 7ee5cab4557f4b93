'use strict';
// VS Code extension for ascend-lsp: starts the language server over stdio
// with vscode-languageclient and adds three commands (generate the migration
// report, fix all safe issues, restart the server).
const vscode = require('vscode');
const lc = require('vscode-languageclient/node');
const crypto = require('node:crypto');
const path = require('node:path');
const discovery = require('./discovery');

const SECTION = 'ascend-lsp';
const NAME = 'Ascend NPU Migration';

// Python, pip requirements, pyproject.toml / .ascend-lsp.toml and CUDA/C++.
const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'python' },
  { scheme: 'untitled', language: 'python' },
  { scheme: 'file', language: 'pip-requirements' },
  { scheme: 'file', pattern: '**/requirements*.txt' },
  { scheme: 'file', language: 'toml' },
  { scheme: 'file', language: 'cuda-cpp' },
  { scheme: 'file', language: 'cpp' },
  { scheme: 'file', language: 'c' },
];

const REPORT_FILES = /\.(md|json|html)$/;

let client;
let output;
let extensionContext;
let reportsInFlight = 0;
let lifecycle = Promise.resolve();

/** The server settings from the `ascend-lsp.*` configuration. */
function serverSettings(cfg) {
  const target = {
    chip: cfg.get('target.chip', '910B'),
    torchNpu: cfg.get('target.torchNpu', '2.7.1'),
    mindiesd: cfg.get('target.mindiesd', false),
  };
  return {
    select: cfg.get('select', []),
    ignore: cfg.get('ignore', []),
    target,
    lang: cfg.get('lang', 'en'),
  };
}

function workspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length ? folders[0].uri.fsPath : undefined;
}

async function startClient() {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const folder = workspaceFolder();
  const found = await discovery.resolveServer({
    settingPath: cfg.get('path', ''),
    env: process.env,
    extensionPath: extensionContext.extensionPath,
    workspaceFolder: folder,
  });
  for (const t of found.tried || []) output.appendLine(`[discovery] tried ${t}`);
  if (!found.ok) {
    output.appendLine(`[discovery] ${found.message}`);
    vscode.window.showErrorMessage(`Ascend: ${found.message}`, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.path`);
    });
    return undefined;
  }
  for (const w of found.warnings) {
    output.appendLine(`[discovery] skipped: ${w}`);
    vscode.window.showWarningMessage(`Ascend: ${w}; using ${found.path} instead.`);
  }
  output.appendLine(`[discovery] using ascend-lsp ${found.version} (${found.source}): ${found.path}`);

  const serverOptions = { command: found.path, args: [], options: { cwd: folder } };
  const clientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: serverSettings(cfg),
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    middleware: {
      window: {
        // The report command opens its result in the Markdown preview; the
        // server's window/showDocument for it (sent before its answer, so
        // while the command is in flight) would open the report a second
        // time, in the source's editor group.
        showDocument: async (params, next) => {
          if (reportsInFlight > 0 && REPORT_FILES.test(params.uri)) return { success: true };
          return next(params);
        },
      },
    },
  };
  const c = new lc.LanguageClient(SECTION, NAME, serverOptions, clientOptions);
  await c.start();
  return c;
}

async function stopClient() {
  const c = client;
  client = undefined;
  if (!c) return;
  try {
    await c.stop(2000);
  } catch (err) {
    output.appendLine(`[lifecycle] stopping the server: ${err && err.message ? err.message : err}`);
  }
}

// Starts, stops and restarts are serialized.
function enqueue(fn) {
  lifecycle = lifecycle.then(fn, fn);
  return lifecycle;
}

function restart() {
  return enqueue(async () => {
    await stopClient();
    try {
      client = await startClient();
    } catch (err) {
      client = undefined;
      const msg = err && err.message ? err.message : String(err);
      output.appendLine(`[lifecycle] starting the server: ${msg}`);
      vscode.window.showErrorMessage(`Ascend: the ascend-lsp server did not start: ${msg}`);
    }
    return client;
  });
}

async function runningClient() {
  await lifecycle;
  if (!client) await restart();
  if (!client) throw new Error('the ascend-lsp server is not running (see the "Ascend NPU Migration" output)');
  return client;
}

function errorText(err) {
  return err && err.message ? err.message : String(err);
}

/** "Ascend: Generate Migration Report": runs ascend.generateReport with a
 * progress notification, then opens the report in the Markdown preview. */
async function generateReport() {
  let c;
  try {
    c = await runningClient();
  } catch (err) {
    vscode.window.showErrorMessage(`Ascend: ${errorText(err)}`);
    return undefined;
  }
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const token = `ascend-report-${crypto.randomUUID()}`;
  reportsInFlight++;
  let result;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Ascend: generating the migration report', cancellable: true },
      async (progress, cancel) => {
        const sub = c.onProgress(lc.WorkDoneProgress.type, token, (v) => {
          if (v && (v.kind === 'begin' || v.kind === 'report') && v.message) progress.report({ message: v.message });
        });
        try {
          return await c.sendRequest(lc.ExecuteCommandRequest.type, {
            command: 'ascend.generateReport',
            arguments: [{ format: 'md', lang: cfg.get('lang', 'en') }],
            workDoneToken: token,
          }, cancel);
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (err) {
    vscode.window.showErrorMessage(`Ascend: the migration report failed: ${errorText(err)}`);
    return undefined;
  } finally {
    reportsInFlight--;
  }
  if (!result || (!result.uri && !result.path)) {
    vscode.window.showErrorMessage('Ascend: the server did not say where it wrote the report.');
    return undefined;
  }
  const uri = result.uri ? vscode.Uri.parse(result.uri) : vscode.Uri.file(result.path);
  // Beside the source, which keeps its tab and the focus.
  if (/\.md$/i.test(uri.path)) await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  else await vscode.commands.executeCommand('vscode.open', uri, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  output.appendLine(`[report] ${result.path || uri.toString()}`);
  return result;
}

/** "Ascend: Fix All Safe Issues" on the active editor's document. */
async function fixAll() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    vscode.window.showInformationMessage('Ascend: open a file to fix.');
    return undefined;
  }
  let c;
  try {
    c = await runningClient();
  } catch (err) {
    vscode.window.showErrorMessage(`Ascend: ${errorText(err)}`);
    return undefined;
  }
  const uri = editor.document.uri.toString();
  let result;
  try {
    result = await c.sendRequest(lc.ExecuteCommandRequest.type, { command: 'ascend.fixAll', arguments: [uri] });
  } catch (err) {
    vscode.window.showErrorMessage(`Ascend: fix all failed: ${errorText(err)}`);
    return undefined;
  }
  if (result === true) return true; // the server sent workspace/applyEdit
  if (result && (result.changes || result.documentChanges)) {
    const edit = await c.protocol2CodeConverter.asWorkspaceEdit(result);
    return vscode.workspace.applyEdit(edit);
  }
  vscode.window.showInformationMessage(`Ascend: no safe fixes in ${path.basename(editor.document.uri.fsPath)}.`);
  return false;
}

async function activate(context) {
  extensionContext = context;
  output = vscode.window.createOutputChannel(NAME);
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand(`${SECTION}.generateReport`, generateReport),
    vscode.commands.registerCommand(`${SECTION}.fixAll`, fixAll),
    vscode.commands.registerCommand(`${SECTION}.restart`, restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Other settings reach the running server through didChangeConfiguration.
      if (e.affectsConfiguration(`${SECTION}.path`)) restart();
    }),
    // In Restricted Mode the folder's ascend-lsp.path is ignored (package.json
    // restrictedConfigurations); once trusted it may name another binary.
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart()),
  );
  await restart();
}

function deactivate() {
  return enqueue(stopClient);
}

module.exports = { activate, deactivate, serverSettings, DOCUMENT_SELECTOR };

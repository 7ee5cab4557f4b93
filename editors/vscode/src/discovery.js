'use strict';
// Finding the ascend-lsp binary: the `ascend-lsp.path` setting, then PATH,
// then the binary bundled in the extension's bin/. The first binary found is
// version-checked with `ascend-lsp --version`; a binary found on PATH that is
// too old or broken gives way to the bundled one. Nothing here depends on the
// `vscode` module, so it is unit-tested with plain node.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const cp = require('node:child_process');

const MIN_VERSION = '0.1.0';
const EXE = process.platform === 'win32' ? 'ascend-lsp.exe' : 'ascend-lsp';
const VERSION_TIMEOUT_MS = 5000;

/** "ascend-lsp 0.1.0" (first line of --version) -> [0, 1, 0], else null. */
function parseVersion(text) {
  const m = /^ascend-lsp (\d+)\.(\d+)\.(\d+)\b/m.exec(String(text || ''));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

function isExecutableFile(p, fsImpl = fs) {
  try {
    const st = fsImpl.statSync(p);
    if (!st.isFile()) return false;
    if (process.platform === 'win32') return true;
    fsImpl.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Some ways of unpacking a .vsix drop the executable bit of bin/ascend-lsp:
 * put it back (best effort). */
function restoreExecBit(p, fsImpl = fs) {
  if (process.platform === 'win32') return;
  try {
    if (fsImpl.statSync(p).isFile() && !isExecutableFile(p, fsImpl)) fsImpl.chmodSync(p, 0o755);
  } catch {
    /* absent or read-only: reported as absent below */
  }
}

/** Expands ~ and ${workspaceFolder}/${userHome}; relative paths are taken
 * from the workspace folder (or returned as given when there is none). */
function expandSettingPath(p, { workspaceFolder, home = os.homedir() } = {}) {
  let s = String(p).trim();
  s = s.replace(/\$\{userHome\}/g, home);
  if (workspaceFolder) s = s.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (s === '~') s = home;
  else if (s.startsWith('~/') || s.startsWith('~\\')) s = path.join(home, s.slice(2));
  if (!path.isAbsolute(s) && workspaceFolder) s = path.resolve(workspaceFolder, s);
  return s;
}

/** The first executable `name` on PATH (PATHEXT on Windows), or null. */
function findOnPath(name, env = process.env, fsImpl = fs) {
  const dirs = String(env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' && !path.extname(name)
    ? String(env.PATHEXT || '.EXE;.CMD;.BAT').split(';').filter(Boolean)
    : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      if (isExecutableFile(p, fsImpl)) return p;
    }
  }
  return null;
}

/** Runs `<bin> --version`; resolves {version: [x,y,z], text} or {error}. */
function probeVersion(bin, execFile = cp.execFile, timeoutMs = VERSION_TIMEOUT_MS) {
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      const text = String(stdout || '').trim();
      if (err) {
        const why = err.killed ? `timed out after ${timeoutMs / 1000} s` : (String(stderr || '').trim() || err.message);
        resolve({ error: `\`${bin} --version\` failed: ${why}` });
        return;
      }
      const version = parseVersion(text);
      if (!version) resolve({ error: `\`${bin} --version\` printed ${JSON.stringify(text.split('\n')[0] || '')}, not "ascend-lsp X.Y.Z"` });
      else resolve({ version, text: text.split('\n')[0] });
    });
  });
}

/**
 * Resolves the server binary.
 * opts: { settingPath, env, extensionPath, workspaceFolder, minVersion, timeoutMs }
 * deps: { fs, execFile } (for tests)
 * -> { ok: true, path, source: 'setting'|'PATH'|'bundled', version: 'x.y.z', warnings: [] }
 *  | { ok: false, message, tried: [...] }
 */
async function resolveServer(opts = {}, deps = {}) {
  const fsImpl = deps.fs || fs;
  const execFile = deps.execFile || cp.execFile;
  const env = opts.env || process.env;
  const min = parseVersion(`ascend-lsp ${opts.minVersion || MIN_VERSION}`);
  const minText = min.join('.');
  const warnings = [];
  const tried = [];

  async function check(candidate) {
    const probe = await probeVersion(candidate.path, execFile, opts.timeoutMs || VERSION_TIMEOUT_MS);
    if (probe.error) return { problem: probe.error };
    if (compareVersions(probe.version, min) < 0) {
      return {
        problem: `${candidate.path} is ascend-lsp ${probe.version.join('.')}, older than ${minText} which this extension needs; update it`,
      };
    }
    return { version: probe.version.join('.') };
  }

  const setting = typeof opts.settingPath === 'string' ? opts.settingPath.trim() : '';
  if (setting) {
    const p = expandSettingPath(setting, { workspaceFolder: opts.workspaceFolder, home: env.HOME || os.homedir() });
    tried.push(`setting: ${p}`);
    if (!isExecutableFile(p, fsImpl)) {
      return {
        ok: false,
        tried,
        message: `ascend-lsp.path is set to "${setting}" but ${p} is not an executable file. Fix the setting or clear it to use ascend-lsp from PATH or the bundled binary.`,
      };
    }
    const r = await check({ path: p });
    if (r.problem) {
      return { ok: false, tried, message: `ascend-lsp.path: ${r.problem}, or clear the setting to use ascend-lsp from PATH or the bundled binary.` };
    }
    return { ok: true, path: p, source: 'setting', version: r.version, warnings };
  }

  const candidates = [];
  const onPath = findOnPath(EXE, env, fsImpl);
  tried.push(`PATH: ${onPath || 'not found'}`);
  if (onPath) candidates.push({ path: onPath, source: 'PATH' });
  if (opts.extensionPath) {
    const bundled = path.join(opts.extensionPath, 'bin', EXE);
    restoreExecBit(bundled, fsImpl);
    const present = isExecutableFile(bundled, fsImpl);
    tried.push(`bundled: ${bundled}${present ? '' : ' (absent)'}`);
    if (present) candidates.push({ path: bundled, source: 'bundled' });
  }
  for (const c of candidates) {
    const r = await check(c);
    if (!r.problem) return { ok: true, path: c.path, source: c.source, version: r.version, warnings };
    warnings.push(r.problem);
  }
  if (candidates.length === 0) {
    return {
      ok: false,
      tried,
      message: 'The ascend-lsp binary was not found: it is not on PATH and this extension has no bundled binary. ' +
        'Build it (`make` in the ascend-lsp repository) and set "ascend-lsp.path" to build/ascend-lsp, ' +
        'put it on PATH, or install the .vsix built by `make vsix`, which bundles it.',
    };
  }
  return { ok: false, tried, message: `No usable ascend-lsp binary: ${warnings.join('; ')}. Set "ascend-lsp.path" to a binary of version ${minText} or newer.` };
}

module.exports = {
  MIN_VERSION,
  EXE,
  parseVersion,
  compareVersions,
  expandSettingPath,
  findOnPath,
  isExecutableFile,
  probeVersion,
  resolveServer,
};

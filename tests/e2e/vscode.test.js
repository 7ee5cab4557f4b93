'use strict';
// The packaged extension in a real VS Code (code-server), driven through
// Debian's Chromium with playwright-core, as a user would: the folder opens
// in Restricted Mode (the extension still runs), is trusted, train.py shows
// its squiggles and Problems rows, the hover explains the rule, the
// preferred quick fix rewrites its line and adds `import torch_npu` once,
// "Ascend: Generate Migration Report" opens the report exactly once beside
// the source, and "Ascend: Fix All Safe Issues" rewrites the rest without
// saving, as the quick fix does, and the rule links of the Problems rows
// open the docs/rules.md the extension ships. Each step leaves a screenshot in
// $E2E_SHOTS. Prints "ok"/"not ok" lines, then "e2e: N passed, N failed".
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const URL = process.env.E2E_URL;
const PROJECT = process.env.E2E_PROJECT;
const SHOTS = process.env.E2E_SHOTS;
const EXTENSIONS = process.env.E2E_EXTENSIONS;
const EXPECTED = path.join(__dirname, 'expected');
const WAIT = 30000;

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let page;
let pass = 0;
let fail = 0;
let shotNo = 0;

async function shot(name) {
  shotNo++;
  const file = path.join(SHOTS, `${String(shotNo).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file }).catch(() => {});
}

async function step(name, fn) {
  try {
    await fn();
    pass++;
    console.log(`ok - ${name}`);
  } catch (err) {
    fail++;
    console.log(`not ok - ${name}\n    ${String(err && err.stack ? err.stack : err).split('\n').slice(0, 4).join('\n    ')}`);
  }
  await shot(name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase());
}

function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}:\n  expected ${e}\n  got      ${a}`);
}

function truthy(v, what) {
  if (!v) throw new Error(`${what} is false`);
}

// Polls fn until it returns a truthy value; the last value on timeout.
async function until(fn, what, ms = WAIT) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await page.waitForTimeout(200);
  }
}

// The lines shown by the active editor, in order (Monaco renders them
// positioned, not in document order); with top, after moving to the top of
// the file (which then fits the editor).
async function editorLines(top = false) {
  if (top) await page.keyboard.press('Control+Home');
  return page.$$eval('.editor-group-container.active .monaco-editor .view-lines .view-line', (els) =>
    els.map((e) => ({ top: parseFloat(e.style.top), text: e.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top).map((l) => l.text));
}

async function count(selector) {
  return page.$$eval(selector, (els) => els.length);
}

async function tabs() {
  return page.$$eval('.tabs-container .tab', (els) => els.map((e) => e.getAttribute('aria-label') || e.textContent.trim()));
}

// Runs a command from the palette by its title.
// Opens the quick input with key and types text into it. The widget closes
// again when focus moves while it opens (a tab still activating, a panel
// toggling), so a fill that finds it gone reopens it, up to three times.
async function quickInput(key, text) {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await input.waitFor({ state: 'visible', timeout: WAIT });
      await input.fill(text, { timeout: 5000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      console.log(`# quick input for ${JSON.stringify(text)} closed before it was filled; reopening`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
}

async function command(title) {
  await quickInput('F1', `>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: WAIT });
  await page.keyboard.press('Enter');
}

// Puts the cursor at line:column (1-based) of the active editor.
async function goTo(line, column) {
  await quickInput('Control+G', `:${line}:${column}`);
  await page.keyboard.press('Enter');
  const where = `Ln ${line}, Col ${column}`;
  await until(async () => (await page.locator('.statusbar', { hasText: where }).count()) > 0, `the cursor at ${where}`);
}

function disk(name) {
  return fs.readFileSync(path.join(PROJECT, name), 'utf8');
}

async function main() {
  const original = disk('train.py');
  const ctx = await chromium.launchPersistentContext(process.env.E2E_PROFILE, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  page = ctx.pages()[0] || (await ctx.newPage());
  await page.goto(URL);

  await step('the workbench opens the folder in Restricted Mode', async () => {
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    await page.locator('.statusbar', { hasText: 'Restricted Mode' }).waitFor({ timeout: WAIT });
  });

  await step('Restricted Mode: the extension runs (limited support) and flags train.py', async () => {
    // one click: a preview tab, the kind another editor opened in its group replaces
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'train.py' }).click({ timeout: WAIT });
    await until(async () => (await count('.squiggly-warning')) > 0, 'squiggles in Restricted Mode');
  });

  await step('trusting the folder', async () => {
    await command('Workspaces: Manage Workspace Trust');
    await page.getByRole('button', { name: 'Trust', exact: true }).first().click({ timeout: WAIT });
    await until(async () => !(await page.locator('.statusbar', { hasText: 'Restricted Mode' }).count()), 'Restricted Mode to end');
    // the trust editor opens in a modal editor over the workbench: close it
    const modal = page.locator('.modal-editor-part');
    if (await modal.count()) {
      await page.keyboard.press('Escape');
      await until(async () => !(await modal.count()) || !(await modal.first().isVisible()), 'the trust editor to close', 5000)
        .catch(() => modal.locator('.modal-editor-header .codicon-close').first().click({ timeout: 5000 }));
    }
    await page.locator('.tabs-container .tab', { hasText: 'train.py' }).click();
  });

  await step('squiggles: four warnings and one error', async () => {
    await until(async () => (await count('.squiggly-warning')) === 4 && (await count('.squiggly-error')) === 1,
      'the squiggles after the restart');
    eq([await count('.squiggly-warning'), await count('.squiggly-error')], [4, 1], 'warning and error squiggles');
  });

  await step('Problems: one row per finding, with its code', async () => {
    await page.keyboard.press('Control+Shift+M');
    const rows = await until(async () => {
      const r = await page.$$eval('.markers-panel .monaco-list-row', (els) => els.map((e) => e.textContent.replace(/\u00a0/g, ' ')));
      return r.length >= 6 ? r : null;
    }, 'the Problems rows');
    const codes = rows.map((r) => (r.match(/ASC\d{3}/) || [''])[0]).filter(Boolean);
    eq(codes, ['ASC510', 'ASC203', 'ASC204', 'ASC201', 'ASC201'], 'codes of the Problems rows');
    truthy(rows.some((r) => r.includes('CUDA-only API torch.cuda.synchronize; on Ascend use torch.npu.synchronize')), 'the ASC201 message');
    // each code links to its section of the docs the extension ships
    const links = await page.$$eval('.markers-panel .monaco-list-row a[href]', (els) => els.map((e) => [e.textContent, e.getAttribute('href')]));
    eq(links.map((l) => l[0]), codes, 'linked codes');
    for (const [code, href] of links) {
      const u = new globalThis.URL(href);
      truthy(decodeURIComponent(u.pathname).startsWith(`${EXTENSIONS}/ascend-lsp.ascend-lsp-`), `${href} is in the extension`);
      truthy(decodeURIComponent(u.pathname).endsWith('/docs/rules.md'), `${href} is docs/rules.md`);
      const heading = fs.readFileSync(decodeURIComponent(u.pathname), 'utf8').split('\n')
        .find((l) => l.startsWith(`### ${code} `));
      truthy(heading && u.hash === `#${heading.slice(4).toLowerCase().replace(/ /g, '-')}`, `${href} names the heading of ${code}`);
    }
    await page.keyboard.press('Control+Shift+M');
  });

  await step('hover: the rule, its replacement and no HTML', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'train.py' }).click();
    await goTo(15, 12);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const text = await until(async () => {
      const t = await page.$$eval('.monaco-hover .hover-contents', (els) => els.map((e) => e.textContent).join('\n'));
      return t.includes('Ascend replacement') ? t : null;
    }, 'the hover');
    truthy(text.includes('Ascend replacement: torch.npu.synchronize (confidence High, fix safe)'), `replacement line in ${text.slice(0, 200)}`);
    truthy(text.includes('ASC201 torch-cuda-api'), 'rule heading');
    truthy(!text.includes('<br>'), 'no raw <br>');
    await page.keyboard.press('Escape');
  });

  await step('"Ascend: Generate Migration Report" opens the report once, beside the source', async () => {
    const before = await page.$$eval('.tabs-container .tab', (els) => els.map((e) => `${e.getAttribute('aria-label')}: ${e.className}`));
    console.log('# tabs before the report', JSON.stringify(before));
    await command('Ascend: Generate Migration Report');
    await until(async () => (await tabs()).some((t) => /Preview ascend-migration-report\.md/.test(t)), 'the report preview');
    await page.waitForTimeout(3000); // a second opening would come now
    const t = await tabs();
    eq(t.filter((x) => /ascend-migration-report/.test(x)).length, 1, `report tabs in ${JSON.stringify(t)}`);
    truthy(t.some((x) => /^train\.py/.test(x)), `the train.py tab in ${JSON.stringify(t)}`);
    truthy(fs.existsSync(path.join(PROJECT, 'ascend-migration-report.md')), 'the report file');
  });

  await step('the preferred quick fix rewrites the line and adds import torch_npu once', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'train.py' }).click();
    await goTo(15, 12);
    await command('Auto Fix...');
    let lines = await until(async () => {
      const l = await editorLines();
      return l.includes('    th.npu.synchronize()') ? l : null;
    }, 'the quick fix');
    lines = await editorLines(true);
    eq(lines.filter((l) => l === 'import torch_npu').length, 1, 'import torch_npu lines');
    eq(lines.slice(0, 4), ['"""One training step, as the end-to-end test opens it in VS Code."""', 'import torch', 'import torch_npu', 'import torch as th'], 'first lines');
    eq(disk('train.py'), original, 'train.py on disk (a quick fix does not save)');
  });

  await step('"Ascend: Fix All Safe Issues" rewrites the rest, without saving, like the quick fix', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'train.py' }).click();
    await command('Ascend: Fix All Safe Issues');
    await until(async () => (await editorLines()).includes('        torch.npu.set_per_process_memory_fraction(0.9)'), 'fix all');
    const want = fs.readFileSync(path.join(EXPECTED, 'train.py'), 'utf8').split('\n');
    eq(await editorLines(true), want, 'train.py in the editor');
    await until(async () => (await count('.squiggly-warning')) === 0, 'the warnings to go');
    eq(await count('.squiggly-error'), 1, 'error squiggles left (no fix)');
    eq(disk('train.py'), original, 'train.py on disk (fix all does not save)');
  });

  await step('saving writes the fixed file', async () => {
    await page.keyboard.press('Control+S');
    await until(() => disk('train.py') !== original, 'the save');
    eq(disk('train.py'), fs.readFileSync(path.join(EXPECTED, 'train.py'), 'utf8'), 'train.py on disk');
  });

  await step('the rule link of a Problems row opens docs/rules.md', async () => {
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel .monaco-list-row a[href]', { hasText: 'ASC510' }).first().click({ timeout: WAIT });
    await until(async () => (await tabs()).some((t) => /^rules\.md/.test(t)), 'the rules.md tab');
  });

  await ctx.close();
}

main().catch(async (err) => {
  fail++;
  console.log(`not ok - e2e driver\n    ${err && err.stack ? err.stack : err}`);
  if (page) await shot('driver-error');
}).finally(() => {
  console.log(`e2e: ${pass} passed, ${fail} failed`);
  process.exit(fail ? 1 : 0);
});

// Opens generated HTML reports in Debian's chromium (driven by
// playwright-core) at 1280x800 and prints measurements, one block per
// page, for the suite to compare with golden/browser.txt: whether the page
// fits the window without horizontal scrolling, which dashboard sections
// are visible (and whether the overview is on the first screen), and how
// many findings rows each filter leaves. Row counts are also checked
// against the JSON report of the same project; a mismatch exits 1.
// Usage: node browser.mjs SCREENSHOT_DIR NAME=PAGE.html=REPORT.json ...
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [shots, ...pages] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), "report-browser-"));
const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium", headless: true, args: flags, viewport: { width: 1280, height: 800 },
});
let failed = false;
try {
  for (const spec of pages) {
    const [name, html, json] = spec.split("=");
    const report = JSON.parse(readFileSync(json, "utf8"));
    const page = await ctx.newPage();
    await page.goto(pathToFileURL(resolve(html)).href);
    await page.screenshot({ path: join(shots, `${name}-top.png`) });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    const out = [`${name}: fits 1280 px: ${width <= 1280 ? "yes" : "no (" + width + ")"}`];
    const visible = [];
    for (const id of ["overview", "heatmap", "effort", "findings"]) {
      const box = await page.locator("#" + id).boundingBox();
      if (box && box.width > 0 && box.height > 0) visible.push(id);
    }
    out.push(`${name}: visible: ${visible.join(" ")}`);
    const ov = await page.locator("#overview").boundingBox();
    out.push(`${name}: overview on the first screen: ${ov && ov.y + ov.height <= 800 ? "yes" : "no"}`);
    const count = async () => {
      const shown = await page.locator("#f-table tr[data-domain]:visible").count();
      const label = Number(await page.locator("#f-count").textContent());
      if (shown !== label) { out.push(`${name}: count label ${label} != ${shown} rows`); failed = true; }
      return shown;
    };
    const set = async (id, value) => {
      if (id === "f-file") await page.fill("#" + id, value);
      else await page.selectOption("#" + id, value);
    };
    const expect = (what, got, want) => {
      out.push(`${name}: rows ${what}: ${got}`);
      if (got !== want) { out.push(`${name}: expected ${want} from the JSON report`); failed = true; }
    };
    const f = report.findings;
    expect("all", await count(), f.length);
    await set("f-domain", "2");
    expect("domain 2", await count(), f.filter((x) => x.domain === 2).length);
    await page.screenshot({ path: join(shots, `${name}-domain2.png`) });
    await set("f-domain", "");
    await set("f-severity", "warning");
    expect("severity warning", await count(), f.filter((x) => x.severity === "warning").length);
    await set("f-severity", "");
    await set("f-phase", "0");
    expect("phase 0", await count(), f.filter((x) => x.phases.includes(report.phases[0].name)).length);
    await set("f-phase", "");
    const file = f.length ? f[0].file : "";
    await set("f-file", file);
    expect("file " + file, await count(), f.filter((x) => x.file.toLowerCase().includes(file.toLowerCase())).length);
    await set("f-file", "");
    console.log(out.join("\n"));
    await page.close();
  }
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

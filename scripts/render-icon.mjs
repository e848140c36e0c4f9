// Renders the Marketplace icon (media/icon.png, 128×128; the Marketplace takes no SVG) from the
// activity-bar glyph (media/mlsys-papers.svg) with Debian's chromium. Run by hand when the glyph
// changes: `node scripts/render-icon.mjs`; the PNG is committed because it ships.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const glyph = readFileSync(new URL('../media/mlsys-papers.svg', import.meta.url), 'utf8')
  .replace('stroke="currentColor"', 'stroke="#ffffff"').replace('width="24" height="24"', 'width="92" height="92"');
const html = `<html><body style="margin:0;background:transparent">
<div style="width:128px;height:128px;border-radius:24px;background:linear-gradient(135deg,#2b5876,#1e3c72);display:flex;align-items:center;justify-content:center">${glyph}</div>
</body></html>`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(html);
  await page.screenshot({ path: new URL('../media/icon.png', import.meta.url).pathname, omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
} finally {
  await browser.close();
}

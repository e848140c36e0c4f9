/**
 * Issue 27, loose end: a large CSL library declared by a document is read in slices in the
 * language server, so no request waits behind the whole read. The bibliography cache reads a
 * CSL-JSON or CSL-YAML file with the one reader of its format, a slice at a time (counted work:
 * one batch of the YAML parser, or a scan step), and awaits the injected `pause` between slices;
 * requests for the same file share the one read. No clock is read: the pauses are counted, and
 * the other work that runs between them is seen running.
 */
import { describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { BibCache } from '../../src/core/bibliography/bibCache.js';
import { YAML_BATCH_CHARS } from '../../src/core/bibliography/readCslYaml.js';
import type { WorkspaceFiles } from '../../src/core/workspace/files.js';

/** `n` CSL-YAML items under `references:`. */
const yamlItems = (n: number) => `references:\n${Array.from({ length: n }, (_, i) => `- id: k${i}\n  type: paper-conference\n  title: "Paged attention ${i}"\n  issued:\n    date-parts:\n    - - 2023\n`).join('')}`;
const jsonItems = (n: number) => `[\n${Array.from({ length: n }, (_, i) => `  {"id": "k${i}", "title": "Paged attention ${i}"}`).join(',\n')}\n]\n`;

function workspace(files: Record<string, string>): WorkspaceFiles {
  return {
    folders: [URI.file('/ws')], foldsCase: false,
    async readText(uri) { return files[uri.path]; },
    async readDisk(uri) { return files[uri.path]; },
    async stamp(uri) { return files[uri.path] === undefined ? undefined : 's1'; },
    async exists(uri) { return files[uri.path] !== undefined; },
    realPath: async (uri) => uri,
    openDocument: () => undefined,
    listFolder: async () => [],
  };
}

describe('a CSL bibliography is read in slices, with a pause between them', () => {
  for (const [name, text, items] of [['refs.yaml', yamlItems(400), 400], ['refs.json', jsonItems(400), 400]] as const) {
    it(`${name}: pauses between slices, the other work runs meanwhile, and the file reads as at once`, async () => {
      const uri = URI.file(`/ws/${name}`);
      const ws = workspace({ [uri.path]: text });
      // The pause lets one other task run: it counts how many ran while the read was under way.
      let pauses = 0;
      let ran = 0;
      const pause = async () => { pauses++; await Promise.resolve(); ran++; };
      const cache = new BibCache(64, undefined, pause);
      const got = await cache.get(ws, uri, 'bib', (t) => readBibFile(uri.path, t));
      expect(got).toEqual(readBibFile(uri.path, text));
      expect(got!.entries).toHaveLength(items);
      // YAML: one pause per batch of at most 32 items (400 items, about 13 batches); JSON: per 16 elements.
      expect(pauses).toBeGreaterThanOrEqual(name.endsWith('.yaml') ? Math.ceil(items / 32) - 1 : Math.ceil(items / 16) - 1);
      expect(ran).toBe(pauses);
    });
  }

  it('no slice hands the YAML parser more than two batches of characters, and requests share the one read', async () => {
    const uri = URI.file('/ws/refs.yaml');
    const text = yamlItems(2000);
    const ws = workspace({ [uri.path]: text });
    let pauses = 0;
    const cache = new BibCache(64, undefined, async () => { pauses++; });
    const [a, b] = await Promise.all([1, 2].map(() => cache.get(ws, uri, 'bib', (t) => readBibFile(uri.path, t))));
    expect(a).toBe(b);
    expect(a!.entries).toHaveLength(2000);
    // One read for both requests: as many pauses as one read takes (the text over at most twice a batch's characters per slice).
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(text.length / (2 * YAML_BATCH_CHARS)));
    const alone = new BibCache(64, undefined, async () => { pausesAlone++; });
    let pausesAlone = 0;
    await alone.get(ws, uri, 'bib', (t) => readBibFile(uri.path, t));
    expect(pauses).toBe(pausesAlone);
  });
});

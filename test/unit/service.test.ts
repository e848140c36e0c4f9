/**
 * The citation language service (`src/core/service/service.ts`) on in-memory workspaces, with the
 * real bundled corpus: completion, hover, definition, diagnostics, code actions and the plans for
 * citing and for writing bibliographies. No VS Code, no language server, no disk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { refusalText } from '../../src/core/bibliography/refusal.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, DiagnosticSeverity, MarkupKind, Range, type CompletionItem, type MarkupContent, type Position } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { parseBib } from '../../src/core/bibliography/bibtexFile.js';
import { toBibtex } from '../../src/core/cite/writeBibtex.js';
import type { Corpus } from '../../src/core/corpus/readCorpus.js';
import type { Logger } from '../../src/core/config/logger.js';
import type { Entry } from '../../src/core/corpus/schema.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { entryMarkdown, escapeMarkdown, topicPathOf } from '../../src/core/service/entryCards.js';
import { LatexProject } from '../../src/core/latex/project.js';
import { createCitationService, type CitationService } from '../../src/core/service/service.js';
import {
  corpusView, DiagnosticCodes, DIAGNOSTIC_SOURCE, ServiceCommands, textHash, type BibChange, type CorpusView,
} from '../../src/core/service/types.js';
import { scopeSettings, type SettingName, type Settings } from '../../src/core/config/settings.js';
import { CURSOR, cursor, realCorpus } from './helpers.js';
import { MemoryWorkspace } from './memoryWorkspace.js';

/** A logger that keeps what it is told. */
function memoryLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(String(m)) };
}

/** A document from fixture text with one cursor marker: the document (marker removed) and the cursor. */
function docAt(path: string, languageId: string, marked: string, version = 1): { doc: TextDocument; position: Position; offset: number } {
  const { text, offset } = cursor(marked);
  const doc = TextDocument.create(URI.file(path).toString(), languageId, version, text);
  return { doc, position: doc.positionAt(offset), offset };
}

/** A document without a cursor. */
function docOf(path: string, languageId: string, text: string, version = 1): TextDocument {
  return TextDocument.create(URI.file(path).toString(), languageId, version, text);
}

/** The range of the `n`-th occurrence (0-based) of `needle` in a document. */
function rangeOfText(doc: TextDocument, needle: string, n = 0): Range {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = doc.getText().indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${needle} (#${n}) not in the document`);
  }
  return Range.create(doc.positionAt(at), doc.positionAt(at + needle.length));
}

const uriOf = (path: string) => URI.file(path).toString();
const markdownOf = (c: unknown) => {
  const m = c as MarkupContent;
  expect(m.kind).toBe(MarkupKind.Markdown);
  return m.value;
};

/** Applies a bibliography insertion to a text. */
const apply = (text: string, ins: { offset: number; text: string }) => text.slice(0, ins.offset) + ins.text + text.slice(ins.offset);

let corpus: Corpus;
let view: CorpusView;
let kwon: Entry;
let orca: Entry;
/** `kwon2023efficient`'s BibTeX, as the service writes it. */
let kwonBib: string;

beforeAll(() => {
  corpus = realCorpus();
  view = corpusView(corpus, createSearchIndex(corpus));
  kwon = corpus.entry('kwon2023efficient')!;
  orca = corpus.entry('yu2022orca')!;
  kwonBib = toBibtex(kwon);
});

interface Setup {
  files?: Record<string, string>;
  /** The settings as an editor sends them (read by `readSettings`). */
  settings?: Partial<Settings>;
  /** The settings whose values a workspace set. */
  fromWorkspace?: SettingName[];
  /** The display language. */
  language?: string;
  formatReferences?: (entries: readonly Entry[], scope: URI) => Promise<string[]>;
  /** The editor has our UI (VS Code); default true. */
  clientUi?: boolean;
  /** Give the service a LaTeX project of the `.tex` files (as the server indexes them). */
  project?: boolean;
}

/** The keys of the corpus's works named PagedAttention (its paper and vLLM's repository), sorted. */
function pagNamed(): string[] {
  const keys = corpus.entries.filter((e) => e.aliases.some((a) => a === 'PagedAttention')).map((e) => e.key).sort();
  expect(keys).toEqual(expect.arrayContaining(['kwon2023efficient', 'vllm2023vllm']));
  return keys;
}

/** A service over a fresh in-memory workspace. */
function setup(opts: Setup = {}): { service: CitationService; ws: MemoryWorkspace; log: ReturnType<typeof memoryLogger> } {
  const ws = new MemoryWorkspace(opts.files);
  const log = memoryLogger();
  let project: LatexProject | undefined;
  if (opts.project) {
    project = new LatexProject();
    for (const [path, text] of Object.entries(opts.files ?? {})) if (path.endsWith('.tex')) project.set(URI.file(path), text);
  }
  const service = createCitationService({
    project,
    workspace: ws,
    corpus: () => view,
    config: () => scopeSettings(opts.settings, opts.fromWorkspace, opts.language),
    logger: log,
    formatReferences: opts.formatReferences,
    clientUi: () => opts.clientUi ?? true,
  });
  return { service, ws, log };
}

/** A `.bib` entry of the user's own that the corpus does not have. */
const SMITH = '@article{smith2021paging,\n  title = {Paging Tricks for Everyone},\n  author = {Smith, Ann},\n  year = {2021}\n}\n';

describe('completion', () => {
  it('offers the PagedAttention paper first for \\cite{pag, replacing the typed prefix', async () => {
    const { service } = setup();
    const { doc, position } = docAt('/ws/main.tex', 'latex', `Text \\cite{pag${CURSOR}}.`);
    const list = await service.complete(doc, position);
    expect(list!.isIncomplete).toBe(true);
    const first = list!.items[0]!;
    expect(first.label).toBe('kwon2023efficient');
    expect(first.detail).toBe(kwon.title);
    expect(first.labelDetails).toEqual({ description: 'SOSP 2023' });
    expect(first.kind).toBe(CompletionItemKind.Reference);
    expect(first.sortText).toBe('0000');
    expect(first.filterText).toBe('pag');
    expect(first.data).toEqual({ key: 'kwon2023efficient', uri: doc.uri });
    // `Text \cite{` is 11 characters: the key starts there, the cursor is 3 further.
    expect(first.textEdit).toEqual({ newText: 'kwon2023efficient', insert: Range.create(0, 11, 0, 14), replace: Range.create(0, 11, 0, 14) });
    // While "PagedAttention" is typed, the works named so (the paper and vLLM's repository) lead,
    // above titles that mention the name; then the search's order.
    const named = pagNamed();
    expect(list!.items.slice(0, named.length).map((i) => i.label).sort()).toEqual(named);
    expect(list!.items.map((i) => i.label)).toEqual(view.index.search('pag', list!.items.length).map((h) => h.entry.key));
  });

  it('does not offer keys the citation already has', async () => {
    const { service } = setup();
    const withOrca = docAt('/ws/main.tex', 'latex', `\\citep[p.~3]{yu2022orca,pag${CURSOR}}`);
    const a = await service.complete(withOrca.doc, withOrca.position);
    expect(a!.items[0]!.label).toBe('kwon2023efficient');
    expect(a!.items.map((i) => i.label)).not.toContain('yu2022orca');
    // The query "orc" finds Orca first; already cited, it is not offered: the rest are, in the search's order.
    const orc = docAt('/ws/main.tex', 'latex', `\\citep[p.~3]{yu2022orca,orc${CURSOR}}`);
    const searched = view.index.search('orc', 100).map((h) => h.entry.key);
    expect(searched[0]).toBe('yu2022orca');
    expect((await service.complete(orc.doc, orc.position))!.items.map((i) => i.label)).toEqual(searched.slice(1));
    const withKwon = docAt('/ws/main.tex', 'latex', `\\citep[p.~3]{kwon2023efficient,pag${CURSOR}}`);
    const b = await service.complete(withKwon.doc, withKwon.position);
    expect(b!.items[0]!.label).toBe('vllm2023vllm'); // PagedAttention's other work
    expect(b!.items.map((i) => i.label)).not.toContain('kwon2023efficient');
  });

  it('offers nothing in a LaTeX comment', async () => {
    const { service } = setup();
    const { doc, position } = docAt('/ws/main.tex', 'latex', `Text\n% \\cite{pag${CURSOR}}\n`);
    expect(await service.complete(doc, position)).toBeUndefined();
  });

  it('completes after @ in Markdown, and not without @', async () => {
    const { service } = setup();
    const md = docAt('/ws/notes.md', 'markdown', `As shown [@pag${CURSOR}], paging helps.`);
    const list = await service.complete(md.doc, md.position);
    expect(list!.items[0]!.label).toBe('kwon2023efficient');
    // `As shown [@` is 11 characters.
    expect(list!.items[0]!.textEdit).toEqual({ newText: 'kwon2023efficient', insert: Range.create(0, 11, 0, 14), replace: Range.create(0, 11, 0, 14) });
    const bare = docAt('/ws/notes.md', 'markdown', `As shown pag${CURSOR}, paging helps.`);
    expect(await service.complete(bare.doc, bare.position)).toBeUndefined();
    const bracket = docAt('/ws/notes.md', 'markdown', `As shown [pag${CURSOR}], paging helps.`);
    expect(await service.complete(bracket.doc, bracket.position)).toBeUndefined();
  });

  it('offers nothing in a document of another language', async () => {
    const { service } = setup();
    const { doc, position } = docAt('/ws/a.py', 'python', `x = "\\cite{pag${CURSOR}}"`);
    expect(await service.complete(doc, position)).toBeUndefined();
  });

  it("puts the document's own .bib entries that the corpus lacks first, replacing the whole partial key", async () => {
    const { service } = setup({
      files: {
        // kwon2023efficient is in the corpus: offered once, from the corpus; smith2021paging only here.
        '/ws/refs.bib': `${kwonBib}\n${SMITH}\n@misc{jones2019cats, title = {On Cats}, year = {2019}}\n`,
      },
    });
    // The cursor is after "pag", inside "pagxy": insert up to the cursor, replace the whole key.
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{pag${CURSOR}xy}\n`);
    const list = await service.complete(doc, position);
    const labels = list!.items.map((i) => i.label);
    // The document's own entry first, then the corpus's as the search ranks them: PagedAttention's works lead.
    expect(labels[0]).toBe('smith2021paging');
    const named = pagNamed();
    expect(labels.slice(1, 1 + named.length).sort()).toEqual(named);
    expect(labels.slice(1)).toEqual(view.index.search('pag', labels.length - 1).map((h) => h.entry.key));
    expect(labels.filter((l) => l === 'kwon2023efficient')).toHaveLength(1);
    expect(labels).not.toContain('jones2019cats');
    const own = list!.items[0]!;
    expect(own.detail).toBe('Paging Tricks for Everyone');
    expect(own.labelDetails).toEqual({ description: '2021' });
    expect(own.data).toBeUndefined();
    expect(markdownOf(own.documentation)).toBe('Paging Tricks for Everyone\n\nAnn Smith · 2021');
    // `\cite{` is 6 characters on line 1; "pag" ends at 9, "pagxy" at 11.
    expect(own.textEdit).toEqual({ newText: 'smith2021paging', insert: Range.create(1, 6, 1, 9), replace: Range.create(1, 6, 1, 11) });
    expect(list!.items.find((i) => i.label === 'kwon2023efficient')!.textEdit).toEqual({ newText: 'kwon2023efficient', insert: Range.create(1, 6, 1, 9), replace: Range.create(1, 6, 1, 11) });
    expect(list!.items.map((i) => i.sortText).slice(0, 3)).toEqual(['0000', '0001', '0002']);
  });

  it('matches own entries on every typed word of key, title, author or year', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const byTitle = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{everyone${CURSOR}}\n`);
    expect((await service.complete(byTitle.doc, byTitle.position))!.items[0]!.label).toBe('smith2021paging');
    const byAuthorYear = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{smi-2021${CURSOR}}\n`);
    expect((await service.complete(byAuthorYear.doc, byAuthorYear.position))!.items[0]!.label).toBe('smith2021paging');
    const wrongYear = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{smi-2020${CURSOR}}\n`);
    expect((await service.complete(wrongYear.doc, wrongYear.position))!.items.map((i) => i.label)).not.toContain('smith2021paging');
  });

  it('answers nothing when the request is cancelled', async () => {
    const { service } = setup();
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\cite{pag${CURSOR}}`);
    expect(await service.complete(doc, position, { isCancellationRequested: true })).toBeUndefined();
  });
});

describe('resolveCompletion', () => {
  const kwonItem = async (service: CitationService): Promise<CompletionItem> => {
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\cite{pag${CURSOR}}`);
    return (await service.complete(doc, position))!.items[0]!;
  };

  it('adds the entry card as Markdown, without a reference when there is no formatter', async () => {
    const { service } = setup();
    const item = await kwonItem(service);
    const resolved = await service.resolveCompletion(item);
    const md = markdownOf(resolved.documentation);
    expect(md.startsWith('**Efficient Memory Management for Large Language Model Serving with PagedAttention**\n\n')).toBe(true);
    expect(md).toContain('`kwon2023efficient`');
    expect(md).not.toContain('---');
    expect(resolved.label).toBe('kwon2023efficient');
    expect(resolved.textEdit).toEqual(item.textEdit);
  });

  it('adds the formatted reference after a rule, asking in the scope of the document', async () => {
    const scopes: string[] = [];
    const { service } = setup({
      formatReferences: async (entries, scope) => {
        scopes.push(scope.toString());
        return entries.map((e) => `REF:${e.key}`);
      },
    });
    const plain = markdownOf((await setup().service.resolveCompletion(await kwonItem(setup().service))).documentation);
    const md = markdownOf((await service.resolveCompletion(await kwonItem(service))).documentation);
    expect(md).toBe(`${plain}\n\n---\n\nREF:kwon2023efficient`);
    expect(scopes).toEqual([uriOf('/ws/main.tex')]);
  });

  it('shows the card without the reference when the formatter throws, and logs a warning', async () => {
    const { service, log } = setup({ formatReferences: async () => { throw new Error('bad style'); } });
    const plain = markdownOf((await setup().service.resolveCompletion(await kwonItem(setup().service))).documentation);
    const md = markdownOf((await service.resolveCompletion(await kwonItem(service))).documentation);
    expect(md).toBe(plain);
    expect(log.warnings).toEqual(['formatting kwon2023efficient for a hover: bad style']);
  });

  it('shows the topic labels of the display language passed as a value', async () => {
    const docOf = async (language: string) => {
      const { service } = setup({ language });
      return markdownOf((await service.resolveCompletion(await kwonItem(service))).documentation);
    };
    expect(await docOf('zh-cn')).toContain(`*${escapeMarkdown(topicPathOf(corpus, kwon, 'zh'))}*`);
    expect(await docOf('en')).toContain(`*${escapeMarkdown(topicPathOf(corpus, kwon, 'en'))}*`);
  });

  it('leaves items that already have documentation, or no corpus key, as they are', async () => {
    const { service } = setup();
    const own: CompletionItem = { label: 'x', documentation: 'mine', data: { key: 'kwon2023efficient', uri: 'file:///ws/a.tex' } };
    expect(await service.resolveCompletion(own)).toBe(own);
    const unknown: CompletionItem = { label: 'y', data: { key: 'nosuch1999', uri: 'file:///ws/a.tex' } };
    expect(await service.resolveCompletion(unknown)).toBe(unknown);
  });
});

describe('hover', () => {
  const cite = (key: string, bib = '\\bibliography{refs}\n') => docAt('/ws/main.tex', 'latex', `${bib}See \\cite{other,${key.slice(0, 3)}${CURSOR}${key.slice(3)}}.\n`);

  it('shows a corpus entry and "✓ in refs.bib" when the bibliography has it (any case)', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': kwonBib.replace('kwon2023efficient', 'Kwon2023Efficient') } });
    const { doc, position } = cite('kwon2023efficient');
    const h = await service.hover(doc, position);
    const md = markdownOf(h!.contents);
    expect(md.startsWith('**Efficient Memory Management for Large Language Model Serving with PagedAttention**')).toBe(true);
    expect(md).toContain('[Details](command:mlsysPapers.showDetails?');
    expect(md.endsWith('\n\n---\n\n✓ in refs\\.bib')).toBe(true);
    expect(h!.range).toEqual(rangeOfText(doc, 'kwon2023efficient'));
  });

  it('says "✗ not in refs.bib" when the bibliography lacks it, naming the path inside the workspace', async () => {
    const { service } = setup({ files: { '/ws/bib/refs.bib': SMITH } });
    const { doc, position } = cite('kwon2023efficient', '\\bibliography{bib/refs}\n');
    const md = markdownOf((await service.hover(doc, position))!.contents);
    expect(md.endsWith('\n\n---\n\n✗ not in bib/refs\\.bib')).toBe(true);
  });

  it('says "no bibliography declared" without a declaration, and adds the formatted reference', async () => {
    const { service } = setup({ formatReferences: async (es) => es.map((e) => `REF:${e.key}`) });
    const { doc, position } = cite('kwon2023efficient', '');
    const md = markdownOf((await service.hover(doc, position))!.contents);
    expect(md.endsWith('\n\n---\n\nREF:kwon2023efficient\n\n---\n\nno bibliography declared')).toBe(true);
  });

  it("shows the title of a key only the document's .bib has", async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const { doc, position } = cite('smith2021paging');
    expect(markdownOf((await service.hover(doc, position))!.contents))
      .toBe('Paging Tricks for Everyone\n\nAnn Smith · 2021\n\n---\n\n✓ in refs\\.bib');
  });

  it('says "Unknown key" for a key nobody knows, and nothing off a citation', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const { doc, position } = cite('nosuch1999');
    expect(markdownOf((await service.hover(doc, position))!.contents)).toBe('Unknown key nosuch1999\n\n---\n\n✗ not in refs\\.bib');
    const off = docAt('/ws/main.tex', 'latex', `Se${CURSOR}e \\cite{kwon2023efficient}.`);
    expect(await service.hover(off.doc, off.position)).toBeUndefined();
  });

  it('shows the reader\'s text only: no curator note, no verified or unverified list', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': kwonBib } });
    const kwon = realCorpus().entry('kwon2023efficient')!;
    expect(kwon.note).toMatch(/not reachable/);
    const md = markdownOf((await service.hover(cite('kwon2023efficient').doc, cite('kwon2023efficient').position))!.contents);
    expect(md).toContain(escapeMarkdown(kwon.summary!));
    expect(md).not.toContain('reachable');
    expect(md).not.toContain('verbatim');
    expect(md).not.toContain('sosp2023');
    for (const e of realCorpus().entries) {
      const card = entryMarkdown(realCorpus(), e, { topicLabels: 'en', detailsLink: true });
      if (e.note) expect(card).not.toContain(escapeMarkdown(e.note));
      expect(card).not.toMatch(/not verified|left out/i);
    }
  });

  it('shows the topic labels the settings and the display language give, both passed as values (auto follows the language)', async () => {
    const { doc, position } = cite('kwon2023efficient');
    const topics = async (settings: Partial<Settings>, language?: string) => {
      const md = markdownOf((await setup({ files: { '/ws/refs.bib': kwonBib }, settings, language }).service.hover(doc, position))!.contents);
      return (['en', 'zh', 'both'] as const).filter((l) => md.includes(`*${escapeMarkdown(topicPathOf(corpus, kwon, l))}*`));
    };
    expect(topicPathOf(corpus, kwon, 'zh')).not.toBe(topicPathOf(corpus, kwon, 'en'));
    expect(await topics({})).toEqual(['en']);
    expect(await topics({}, 'en')).toEqual(['en']);
    expect(await topics({}, 'zh-cn')).toEqual(['zh']);
    expect(await topics({ topicLabels: 'english' }, 'zh-cn')).toEqual(['en']);
    expect(await topics({ topicLabels: 'chinese' }, 'en')).toEqual(['zh']);
    expect(await topics({ showChineseLabels: true }, 'zh-tw')).toEqual(['both']);
  });

  it('works on Markdown citations', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': kwonBib } });
    const { doc, position } = docAt('/ws/a.md', 'markdown', `---\nbibliography: refs.bib\n---\n\nSee [@kwon${CURSOR}2023efficient].\n`);
    const h = await service.hover(doc, position);
    expect(markdownOf(h!.contents).endsWith('✓ in refs\\.bib')).toBe(true);
    expect(h!.range).toEqual(Range.create(4, 6, 4, 23));
  });
});

describe('definition', () => {
  const BIB = `% my references\n\n${SMITH}\n  @inproceedings{ Kwon2023Efficient ,\n  title = {PagedAttention}\n}\n`;

  it("goes to the key's @type{key line in the bibliography (any case)", async () => {
    const { service } = setup({ files: { '/ws/refs.bib': BIB } });
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{kwon${CURSOR}2023efficient}`);
    // Line 9 (0-based 8) is `  @inproceedings{ Kwon2023Efficient ,`: the key starts at character 18.
    expect(BIB.split('\n')[8]).toBe('  @inproceedings{ Kwon2023Efficient ,');
    expect(await service.definition(doc, position)).toEqual({ uri: uriOf('/ws/refs.bib'), range: Range.create(8, 18, 8, 18) });
    const smith = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{smith${CURSOR}2021paging}`);
    expect(await service.definition(smith.doc, smith.position)).toEqual({ uri: uriOf('/ws/refs.bib'), range: Range.create(2, 9, 2, 9) });
  });

  it("goes to the corpus entry's BibTeX when the bibliography lacks the key; nowhere for an unknown key", async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{kwon${CURSOR}2023efficient}`);
    expect(await service.definition(doc, position)).toEqual({ uri: 'mlsys-papers:/kwon2023efficient.bib', range: Range.create(0, 0, 0, 0) });
    const unknown = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{nosuch${CURSOR}1999}`);
    expect(await service.definition(unknown.doc, unknown.position)).toBeUndefined();
  });

  it('serves the BibTeX of mlsys-papers:/<key>.bib', () => {
    const { service } = setup();
    expect(service.entryDocument('mlsys-papers:/kwon2023efficient.bib'))
      .toBe(`% ${kwon.title}\n% From the MLSys Papers corpus. ${kwon.summary}\n\n${kwonBib}`);
    expect(service.entryDocument('mlsys-papers:/nosuch1999.bib')).toBe('% MLSys Papers: no entry nosuch1999\n');
  });
});

describe('diagnostics', () => {
  const warning = (doc: TextDocument, key: string, code: string, message: string, n = 0) =>
    ({ range: rangeOfText(doc, key, n), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code, message });

  it('flags unknown keys without a bibliography, and nothing else', async () => {
    const { service } = setup();
    const doc = docOf('/ws/main.tex', 'latex', '\\cite{nosuch1999,kwon2023efficient}\n% \\cite{commented1999}\n');
    expect(await service.diagnostics(doc)).toEqual([
      warning(doc, 'nosuch1999', DiagnosticCodes.unknown,
        'Unknown citation key "nosuch1999": the document declares no bibliography and the MLSys Papers corpus does not know it.'),
    ]);
  });

  it('flags unknown keys and corpus keys missing from the bibliography; keys compare ignoring case', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': `${SMITH}\n@misc{Foo, title = {Foo}}\n` } });
    const doc = docOf('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{nosuch1999,kwon2023efficient,foo,SMITH2021PAGING}\n\\citep{yu2022orca}\n');
    expect(await service.diagnostics(doc)).toEqual([
      warning(doc, 'nosuch1999', DiagnosticCodes.unknown, 'Unknown citation key "nosuch1999": not in refs.bib, nor in the MLSys Papers corpus.'),
      warning(doc, 'kwon2023efficient', 'not-in-bibliography', '"kwon2023efficient" is in the MLSys Papers corpus but not in refs.bib.'),
      warning(doc, 'yu2022orca', 'not-in-bibliography', '"yu2022orca" is in the MLSys Papers corpus but not in refs.bib.'),
    ]);
  });

  it('says so when the declared bibliography is missing or cannot be read', async () => {
    const { service } = setup({ files: { '/ws/broken.bib': '@misc{a, title = {A}\n' } });
    const missing = docOf('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{nosuch1999,kwon2023efficient}\n');
    expect(await service.diagnostics(missing)).toEqual([
      warning(missing, 'nosuch1999', DiagnosticCodes.unknown,
        'Unknown citation key "nosuch1999": the MLSys Papers corpus does not know it, and the declared bibliography (refs.bib) is missing or cannot be read.'),
      // Citing creates the declared file: the quick fix that adds the entry applies.
      warning(missing, 'kwon2023efficient', 'not-in-bibliography', '"kwon2023efficient" is in the MLSys Papers corpus; refs.bib does not exist yet.'),
    ]);
    // A .bib with a broken entry is read as BibTeX reads it: its other entries count, the broken
    // one keeps its key (BibTeX keeps the entry), and the error is said once.
    const broken = docOf('/ws/main.tex', 'latex', '\\bibliography{broken,refs}\n\\cite{nosuch1999,a}\n');
    expect((await service.diagnostics(broken)).map((d) => d.message)).toEqual([
      'broken.bib, line 1: not closed: the file ends inside it (a "{" in it may lack its "}"); entry a is read up to there, as BibTeX reads it (its key counts). The keys of its other entries are checked.',
      'Unknown citation key "nosuch1999": not in broken.bib, nor in the MLSys Papers corpus.',
    ]);
  });

  it('raises nothing when the bibliography has every key', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': `${kwonBib}\n${SMITH}` } });
    const doc = docOf('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{KWON2023EFFICIENT,smith2021paging}\n');
    expect(await service.diagnostics(doc)).toEqual([]);
  });

  it('flags Markdown citations against the front matter bibliography, nocite included', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const doc = docOf('/ws/a.md', 'markdown', '---\nbibliography: refs.bib\nnocite: |\n  @yu2022orca\n---\n\nSee [@smith2021paging; @kwon2023efficient] and `@notacite`.\n');
    expect(await service.diagnostics(doc)).toEqual([
      warning(doc, 'yu2022orca', 'not-in-bibliography', '"yu2022orca" is in the MLSys Papers corpus but not in refs.bib.'),
      warning(doc, 'kwon2023efficient', 'not-in-bibliography', '"kwon2023efficient" is in the MLSys Papers corpus but not in refs.bib.'),
    ]);
  });

  it('warns on every occurrence of a duplicate key in a .bib file, ignoring case', async () => {
    const { service } = setup();
    const doc = docOf('/ws/refs.bib', 'bibtex', '@misc{dup, title = {A}}\n@misc{other, title = {B}}\n@article{DUP,\n title = {C}}\n');
    const message = (k: string) => `Duplicate key "${k}": BibTeX uses the first and ignores the others (keys are case-insensitive).`;
    expect(await service.diagnostics(doc)).toEqual([
      { range: Range.create(0, 6, 0, 9), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: DiagnosticCodes.duplicate, message: message('dup') },
      { range: Range.create(2, 9, 2, 12), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: DiagnosticCodes.duplicate, message: message('DUP') },
    ]);
    expect(await service.diagnostics(docOf('/ws/ok.bib', 'bibtex', SMITH))).toEqual([]);
    // By extension too, whatever the language id; other languages get nothing.
    expect(await service.diagnostics(docOf('/ws/refs.bib', 'plaintext', '@misc{a, title={A}}\n@misc{a, title={B}}\n'))).toHaveLength(2);
    expect(await service.diagnostics(docOf('/ws/a.py', 'python', '@misc{a, title={A}}\n@misc{a, title={B}}\n'))).toEqual([]);
  });

  it('reads the bibliography again when it changes, and not while it does not', async () => {
    const { service, ws } = setup({ files: { '/ws/refs.bib': SMITH } });
    const doc = docOf('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{kwon2023efficient}\n');
    expect((await service.diagnostics(doc)).map((d) => d.code)).toEqual(['not-in-bibliography']);
    const reads = () => ws.reads.filter((u) => u === uriOf('/ws/refs.bib')).length;
    expect(reads()).toBe(1);
    await service.diagnostics(doc);
    expect(reads()).toBe(1);
    ws.write('/ws/refs.bib', `${SMITH}\n${kwonBib}`);
    expect(await service.diagnostics(doc)).toEqual([]);
    // An open document with unsaved text counts over the disk.
    expect(reads()).toBe(2);
    ws.openDoc('/ws/refs.bib', 3, SMITH);
    expect((await service.diagnostics(doc)).map((d) => d.code)).toEqual(['not-in-bibliography']);
    // clearCache forgets the parsed file.
    service.clearCache();
    await service.diagnostics(doc);
    expect(reads()).toBe(4);
  });
});

describe('bibliography resolution', () => {
  const unknownIn = (file: string) => `Unknown citation key "nosuch1999": not in ${file}, nor in the MLSys Papers corpus.`;
  const undeclared = 'Unknown citation key "nosuch1999": the document declares no bibliography and the MLSys Papers corpus does not know it.';
  const messages = async (service: CitationService, doc: TextDocument) => (await service.diagnostics(doc)).map((d) => d.message);

  describe('in a multi-file LaTeX paper', () => {
    const paper = () => ({
      '/ws/paper/main.tex': '\\documentclass{article}\n\\begin{document}\n\\input{sections/intro}\n\\bibliography{refs}\n\\end{document}\n',
      '/ws/paper/sections/intro.tex': '\\section{Intro}\nSee \\cite{smith2021paging} and \\cite{nosuch1999}.\n',
      '/ws/paper/refs.bib': SMITH,
    });

    it('gives a section file without a magic comment its root\'s bibliography: no unknown-key alarm for its keys, and its keys completed', async () => {
      const { service } = setup({ files: paper(), project: true });
      const doc = docOf('/ws/paper/sections/intro.tex', 'latex', paper()['/ws/paper/sections/intro.tex']);
      expect(await messages(service, doc)).toEqual([unknownIn('paper/refs.bib')]);
      const { doc: at, position } = docAt('/ws/paper/sections/intro.tex', 'latex', `See \\cite{smi${CURSOR}}.\n`);
      expect((await service.complete(at, position))!.items[0]!.label).toBe('smith2021paging');
      // Without the project (the old behaviour), every key of the section was unknown.
      const alone = setup({ files: paper() });
      expect((await alone.service.diagnostics(doc)).map((d) => d.code)).toEqual([DiagnosticCodes.unknown, DiagnosticCodes.unknown]);
    });

    it('warns on a % !TEX root that names a missing file, on its line, and uses the detected root', async () => {
      const { service } = setup({ files: paper(), project: true });
      const text = '% !TEX root = /Users/someone/paper/main.tex\nSee \\cite{smith2021paging}.\n';
      const diagnostics = await service.diagnostics(docOf('/ws/paper/sections/intro.tex', 'latex', text));
      expect(diagnostics).toEqual([{
        range: Range.create(0, 0, 0, 43), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: DiagnosticCodes.missingRoot,
        message: 'The root file "/Users/someone/paper/main.tex" named by % !TEX root does not exist; the root used instead is paper/main.tex.',
      }]);
    });
  });

  it('follows % !TEX root from a chapter to the root file that declares the bibliography', async () => {
    const { service } = setup({
      files: {
        '/ws/main.tex': '\\documentclass{book}\n\\bibliography{bib/refs}\n\\begin{document}\\include{chapters/one}\\end{document}\n',
        '/ws/bib/refs.bib': kwonBib,
      },
    });
    const doc = docOf('/ws/chapters/one.tex', 'latex', '% !TEX root = ../main.tex\n\\chapter{One}\n\\cite{kwon2023efficient,nosuch1999}\n');
    expect(await messages(service, doc)).toEqual([unknownIn('bib/refs.bib')]);
    // Hover and completion see the same bibliography.
    const h = docAt('/ws/chapters/one.tex', 'latex', `% !TEX root = ../main.tex\n\\cite{kwon${CURSOR}2023efficient}\n`);
    expect(markdownOf((await service.hover(h.doc, h.position))!.contents).endsWith('✓ in bib/refs\\.bib')).toBe(true);
  });

  it('uses the latexRoot setting first, then a magic comment', async () => {
    const files = {
      '/ws/main.tex': '\\bibliography{refs}\n',
      '/ws/refs.bib': kwonBib,
      '/outside/main.tex': '\\bibliography{theirs}\n',
      '/outside/theirs.bib': SMITH,
    };
    const doc = docOf('/ws/chapters/one.tex', 'latex', '\\cite{kwon2023efficient,nosuch1999}\n');
    // From the user's settings, inside the workspace or not.
    expect(await messages(setup({ files, settings: { latexRoot: 'main.tex' } }).service, doc)).toEqual([unknownIn('refs.bib')]);
    expect(await messages(setup({ files, settings: { latexRoot: '../outside/main.tex' } }).service, doc)).toEqual([
      '"kwon2023efficient" is in the MLSys Papers corpus but not in /outside/theirs.bib.',
      unknownIn('/outside/theirs.bib'),
    ]);
    // From the workspace's settings: inside the workspace it counts; outside, it is ignored.
    expect(await messages(setup({ files, settings: { latexRoot: 'main.tex' }, fromWorkspace: ['latexRoot'] }).service, doc)).toEqual([unknownIn('refs.bib')]);
    const ignored = setup({ files, settings: { latexRoot: '../outside/main.tex' }, fromWorkspace: ['latexRoot'] });
    // The document is then its own root, which declares nothing: it is checked against the .bib at the workspace root, and says so.
    expect(await messages(ignored.service, doc)).toEqual(['Unknown citation key "nosuch1999": not declared; checked against refs.bib at the workspace root; the MLSys Papers corpus does not know it either.']);
    expect(ignored.ws.reads).not.toContain(uriOf('/outside/main.tex'));
    // The setting wins over a magic comment (order: setting, magic comment, detected root); one it ignores does not.
    const magic = docOf('/ws/chapters/one.tex', 'latex', '% !TEX root = ../main.tex\n\\cite{kwon2023efficient,nosuch1999}\n');
    expect(await messages(setup({ files, settings: { latexRoot: '../outside/main.tex' } }).service, magic)).toEqual([
      '"kwon2023efficient" is in the MLSys Papers corpus but not in /outside/theirs.bib.',
      unknownIn('/outside/theirs.bib'),
    ]);
    expect(await messages(setup({ files, settings: { latexRoot: '../outside/main.tex' }, fromWorkspace: ['latexRoot'] }).service, magic)).toEqual([unknownIn('refs.bib')]);
  });

  it("reads a Markdown document's front matter bibliography relative to the document", async () => {
    const { service } = setup({ files: { '/ws/notes/refs.bib': kwonBib, '/ws/refs.bib': SMITH } });
    const doc = docOf('/ws/notes/a.md', 'markdown', '---\ntitle: Notes\nbibliography: refs.bib\n---\n\nSee [@kwon2023efficient; @nosuch1999].\n');
    expect(await messages(service, doc)).toEqual([unknownIn('notes/refs.bib')]);
  });

  it("uses the Quarto project's _quarto.yml for a .qmd in a subfolder", async () => {
    const { service } = setup({
      files: {
        '/ws/book/_quarto.yml': 'project:\n  type: book\nbibliography: refs.bib\n',
        '/ws/book/refs.bib': SMITH,
      },
    });
    const doc = docOf('/ws/book/chapters/intro.qmd', 'quarto', '# Intro\n\nSee @smith2021paging and [@kwon2023efficient; @nosuch1999].\n');
    expect(await messages(service, doc)).toEqual([
      '"kwon2023efficient" is in the MLSys Papers corpus but not in book/refs.bib.',
      unknownIn('book/refs.bib'),
    ]);
    const c = docAt('/ws/book/chapters/intro.qmd', 'quarto', `See [@everyone${CURSOR}].\n`);
    expect((await service.complete(c.doc, c.position))!.items[0]!.label).toBe('smith2021paging');
    // The plan writes into the project's bibliography.
    const p = docAt('/ws/book/chapters/intro.qmd', 'quarto', `See ${CURSOR}.\n`);
    const plan = await service.planCitation(p.doc, p.position, ['kwon2023efficient']);
    expect(plan.edit).toEqual({ offset: 4, length: 0, text: '[@kwon2023efficient]' });
    expect(plan.bibliography).toMatchObject({ kind: 'insert', uri: uriOf('/ws/book/refs.bib'), keys: ['kwon2023efficient'] });
  });

  it('reads a CSL-JSON bibliography, and plans adding to it in its own format', async () => {
    const json = '[\n  {"id": "smith2021paging", "type": "article-journal", "title": "Paging Tricks for Everyone"}\n]\n';
    const { service } = setup({ files: { '/ws/refs.json': json } });
    const doc = docOf('/ws/a.md', 'markdown', '---\nbibliography: refs.json\n---\n\nSee [@smith2021paging; @kwon2023efficient; @nosuch1999].\n');
    expect(await messages(service, doc)).toEqual([
      '"kwon2023efficient" is in the MLSys Papers corpus but not in refs.json.',
      unknownIn('refs.json'),
    ]);
    const { bibliography } = await service.planBibliography(doc, ['kwon2023efficient']);
    expect(bibliography.kind).toBe('insert');
    const disk = (bibliography as Extract<BibChange, { kind: 'insert' }>).disk!;
    const after = JSON.parse(apply(json, disk)) as { id: string; DOI?: string }[];
    expect(after.map((i) => i.id)).toEqual(['smith2021paging', 'kwon2023efficient']);
    expect(after[1]!.DOI).toBe('10.1145/3600006.3613165');
    expect(apply(json, disk).startsWith(json.slice(0, disk.offset))).toBe(true);
  });

  it.each([
    ['refs.json', '[\n  {"type": "book", "title": "No id"},\n  {"id": "smith2021paging", "type": "article-journal", "title": "Paging"}\n]\n', 2],
    ['refs.yaml', '---\nreferences:\n- type: book\n  title: No id\n- id: smith2021paging\n  type: article-journal\n  title: Paging\n', 3],
  ])('a CSL bibliography with a broken item (%s): its other items count, the item is named once, nothing is written to it', async (name, text, line) => {
    const { service } = setup({ files: { [`/ws/${name}`]: text } });
    const doc = docOf('/ws/a.md', 'markdown', `---\nbibliography: ${name}\n---\n\nSee [@smith2021paging; @nosuch1999].\n`);
    const out = await messages(service, doc);
    // smith2021paging, which only the bibliography defines, is not flagged.
    expect(out.some((m) => m.includes('smith2021paging'))).toBe(false);
    expect(out).toContain(unknownIn(name));
    expect(out.filter((m) => m.startsWith(`${name}, line ${line}:`))).toHaveLength(1);
    const { bibliography } = await service.planBibliography(doc, ['kwon2023efficient']);
    expect(bibliography.kind).not.toBe('insert');
  });
});

describe('codeActions', () => {
  it('offers "Add <key> to the bibliography" and a replacement search', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const doc = docOf('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{kwon2023efficient,nosuch1999}\n');
    const diags = await service.diagnostics(doc);
    const [notInBib, unknown] = diags;
    expect(await service.codeActions(doc, Range.create(1, 0, 1, 0), diags)).toEqual([
      {
        title: 'Add kwon2023efficient to the bibliography', kind: 'quickfix', diagnostics: [notInBib], isPreferred: true,
        command: { title: 'Add kwon2023efficient to the bibliography', command: ServiceCommands.addToBibliography, arguments: [doc.uri, 'kwon2023efficient'] },
      },
      {
        title: 'Search MLSys Papers for a replacement for nosuch1999', kind: 'quickfix', diagnostics: [unknown],
        command: { title: 'Search MLSys Papers for a replacement for nosuch1999', command: 'mlsysPapers.replaceKey', arguments: [doc.uri, unknown!.range, 'nosuch1999'] },
      },
    ]);
    expect(ServiceCommands.addToBibliography).toBe('mlsysPapers.addToBibliography');
    // Diagnostics of other sources get nothing.
    expect(await service.codeActions(doc, Range.create(1, 0, 1, 0), [{ ...notInBib!, source: 'LaTeX' }])).toEqual([]);
  });

  it('offers "Open Note" on a cited key, in LaTeX and Markdown', async () => {
    const { service } = setup({ files: { '/ws/refs.bib': SMITH } });
    const tex = docOf('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{kwon2023efficient,nosuch1999}\n');
    const at = tex.positionAt(tex.getText().indexOf('nosuch') + 2);
    expect((await service.codeActions(tex, Range.create(at, at), [])).map((a) => [a.title, a.kind, a.command?.command, a.command?.arguments])).toEqual([
      ['Open Note for nosuch1999', '', 'mlsysPapers.openNote', ['nosuch1999', tex.uri]],
    ]);
    const md = docOf('/ws/a.md', 'markdown', 'See [@kwon2023efficient] and `[@code]`.\n');
    const on = (s: string) => { const p = md.positionAt(md.getText().indexOf(s) + 1); return Range.create(p, p); };
    expect((await service.codeActions(md, on('kwon'), [])).map((a) => a.command?.arguments)).toEqual([['kwon2023efficient', md.uri]]);
    expect(await service.codeActions(md, on('code'), [])).toEqual([]);
    expect(await service.codeActions(md, on('See'), [])).toEqual([]);
  });
});

describe('planCitation', () => {
  type Insert = Extract<BibChange, { kind: 'insert' }>;

  it('inserts the keys into \\cite{} and appends the BibTeX to the .bib, keeping its bytes', async () => {
    const raw = '% my refs\n@misc{foo, title = {Foo}}\n';
    const { service } = setup({ files: { '/ws/refs.bib': raw } });
    const { doc, position, offset } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\nSee \\cite{${CURSOR}}.\n`, 4);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient', 'yu2022orca', 'nosuch1999']);
    expect(plan.version).toBe(4);
    expect(plan.edit).toEqual({ offset, length: 0, text: 'kwon2023efficient,yu2022orca' });
    expect(plan.added).toEqual(['kwon2023efficient', 'yu2022orca']);
    expect(plan.reused).toEqual([]);
    const b = plan.bibliography as Insert;
    expect(b.kind).toBe('insert');
    expect(b.uri).toBe(uriOf('/ws/refs.bib'));
    expect(b.keys).toEqual(['kwon2023efficient', 'yu2022orca']);
    expect(b.document).toBeUndefined();
    expect(b.disk).toEqual({ offset: raw.length, text: `\n${kwonBib}\n${toBibtex(orca)}`, length: raw.length, hash: textHash(raw), editorSafe: true });
    const after = apply(raw, b.disk!);
    expect(after).toBe(`${raw}\n${kwonBib}\n${toBibtex(orca)}`);
    expect(parseBib(after).entries.map((e) => e.key)).toEqual(['foo', 'kwon2023efficient', 'yu2022orca']);
  });

  it('plans on the raw bytes of a file with a BOM and CRLF', async () => {
    const raw = '\uFEFF@misc{foo, title = {Foo}}\r\n';
    const { service } = setup({ files: { '/ws/refs.bib': raw } });
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{${CURSOR}}\n`);
    const b = (await service.planCitation(doc, position, ['kwon2023efficient'])).bibliography as Insert;
    expect(b.disk).toEqual({ offset: raw.length, text: `\r\n${kwonBib.replace(/\n/g, '\r\n')}`, length: raw.length, hash: textHash(raw), editorSafe: true });
  });

  it('marks a .bib with mixed line endings as not safe to edit through the editor', async () => {
    const raw = '@misc{a, title = {A}}\r\n@misc{b, title = {B}}\n@misc{c, title = {C}}\r\n';
    const { service } = setup({ files: { '/ws/refs.bib': raw } });
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{${CURSOR}}\n`);
    const b = (await service.planCitation(doc, position, ['kwon2023efficient'])).bibliography as Insert;
    expect(b.disk!.editorSafe).toBe(false);
    expect(b.disk!.hash).toBe(textHash(raw));
    expect(apply(raw, b.disk!)).toBe(`${raw}\r\n${kwonBib.replace(/\n/g, '\r\n')}`);
  });

  it("plans on an open .bib's unsaved text with its version, and on the disk's bytes", async () => {
    const raw = '@misc{foo, title = {Foo}}\n';
    const unsaved = `@misc{foo, title = {Foo}}\n\n${SMITH}`;
    const { service, ws } = setup({ files: { '/ws/refs.bib': raw } });
    ws.openDoc('/ws/refs.bib', 9, unsaved);
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{${CURSOR}}\n`);
    const b = (await service.planCitation(doc, position, ['kwon2023efficient'])).bibliography as Insert;
    expect(b.document).toEqual({ version: 9, offset: unsaved.length, text: `\n${kwonBib}` });
    expect(b.disk).toEqual({ offset: raw.length, text: `\n${kwonBib}`, length: raw.length, hash: textHash(raw), editorSafe: true });
  });

  it('plans only on the open document when the file on disk is not UTF-8, and refuses when it is not open', async () => {
    const { service, ws } = setup();
    ws.writeNotUtf8('/ws/refs.bib');
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{${CURSOR}}\n`);
    ws.openDoc('/ws/refs.bib', 2, SMITH);
    const open = (await service.planCitation(doc, position, ['kwon2023efficient'])).bibliography as Insert;
    expect(open).toEqual({ kind: 'insert', uri: uriOf('/ws/refs.bib'), keys: ['kwon2023efficient'], document: { version: 2, offset: SMITH.length, text: `\n${kwonBib}` }, disk: undefined });
    ws.closeDoc('/ws/refs.bib');
    // Not open: the file exists, so it is neither read as missing nor created over.
    expect((await service.planCitation(doc, position, ['kwon2023efficient'])).bibliography).toEqual({
      kind: 'refuse', uri: uriOf('/ws/refs.bib'),
      reason: 'not-utf8', keys: ['kwon2023efficient'],
    });
    expect(await service.planInsertion(URI.file('/ws/refs.bib'), ['kwon2023efficient'])).toEqual({
      kind: 'refuse', uri: uriOf('/ws/refs.bib'),
      reason: 'not-utf8', keys: ['kwon2023efficient'],
    });
  });

  it('refuses a .bib with a syntax error, with its line', async () => {
    const raw = '@misc{ok, title = {Fine}}\n@misc{foo, title = {Foo}\n@misc{bar, title = {Bar}}\n';
    const { service } = setup({ files: { '/ws/refs.bib': raw } });
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{${CURSOR}}\n`);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient']);
    expect(plan.edit!.text).toBe('kwon2023efficient');
    expect(plan.bibliography).toMatchObject({ kind: 'refuse', uri: uriOf('/ws/refs.bib'), line: 2, column: 1 });
    const message = refusalText(plan.bibliography as Extract<BibChange, { kind: 'refuse' }>);
    expect(message.startsWith('has an error at line 2, column 1 (expected "," or "}" after the value of title, found "@" (line 3); entry foo is read up to there, as BibTeX reads it (its key counts))')).toBe(true);
    expect(message.endsWith('; it was not changed; add kwon2023efficient once it is fixed')).toBe(true);
  });

  it('asks to declare a bibliography when the document has none', async () => {
    const { service } = setup();
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\cite{${CURSOR}}\n`);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient']);
    expect(plan.bibliography).toEqual({ kind: 'declare', root: uriOf('/ws/main.tex'), keys: ['kwon2023efficient'] });
  });

  it('creates a declared .bib that does not exist yet; refuses when its folder does not exist', async () => {
    const { service } = setup();
    const { doc, position } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n\\cite{${CURSOR}}\n`);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient']);
    expect(plan.bibliography).toEqual({ kind: 'create', uri: uriOf('/ws/refs.bib'), text: kwonBib, keys: ['kwon2023efficient'] });
    const nested = docAt('/ws/main.tex', 'latex', `\\bibliography{nodir/refs}\n\\cite{${CURSOR}}\n`);
    expect((await service.planCitation(nested.doc, nested.position, ['kwon2023efficient'])).bibliography).toEqual({
      kind: 'refuse', uri: uriOf('/ws/nodir/refs.bib'), reason: 'no-folder', keys: ['kwon2023efficient'],
    });
    expect(refusalText({ reason: 'no-folder', keys: ['kwon2023efficient'] })).toBe('cannot be created: its folder does not exist; add kwon2023efficient once it does');
  });

  it('never writes a bibliography outside the workspace', async () => {
    const { service } = setup({ files: { '/outside/refs.bib': SMITH } });
    const { doc, position } = docAt('/ws/paper/main.tex', 'latex', `\\bibliography{../../outside/refs}\n\\cite{${CURSOR}}\n`);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient']);
    expect(plan.bibliography).toEqual({
      kind: 'refuse', uri: uriOf('/outside/refs.bib'), reason: 'outside-workspace', keys: ['kwon2023efficient'],
    });
    expect(refusalText({ reason: 'outside-workspace', keys: ['kwon2023efficient'] })).toBe('is outside the workspace; it was not changed; add kwon2023efficient by hand');
    // Missing, too: it is not created.
    const missing = docAt('/ws/paper/main.tex', 'latex', `\\bibliography{../../elsewhere/refs}\n\\cite{${CURSOR}}\n`);
    expect((await service.planCitation(missing.doc, missing.position, ['kwon2023efficient'])).bibliography)
      .toMatchObject({ kind: 'refuse', uri: uriOf('/elsewhere/refs.bib'), reason: 'outside-workspace' });
  });

  it("cites a work the bibliography has under another key by that key (same DOI), adding nothing", async () => {
    expect(kwon.doi).toBe('10.1145/3600006.3613165');
    const raw = `${SMITH}\n@inproceedings{vllmPaper,\n  title = {The vLLM paper},\n  doi = {https://doi.org/10.1145/3600006.3613165}\n}\n`;
    const { service } = setup({ files: { '/ws/bib/refs.bib': raw } });
    const { doc, position, offset } = docAt('/ws/main.tex', 'latex', `\\bibliography{bib/refs}\n\\cite{smith2021paging,${CURSOR}}\n`);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient']);
    expect(plan).toEqual({
      version: 1,
      edit: { offset, length: 0, text: 'vllmPaper' },
      added: ['vllmPaper'],
      reused: [{ key: 'kwon2023efficient', citeAs: 'vllmPaper', title: kwon.title, file: uriOf('/ws/bib/refs.bib') }],
      bibliography: { kind: 'none' },
    });
    // The same with the bibliography named by an absolute path.
    const abs = docAt('/ws/main.tex', 'latex', `\\bibliography{/ws/bib/refs}\n\\cite{${CURSOR}}\n`);
    // (A fresh service: the cache must not remember the file as named by the relative path.)
    expect((await setup({ files: { '/ws/bib/refs.bib': raw } }).service.planCitation(abs.doc, abs.position, ['kwon2023efficient'])).reused)
      .toEqual([{ key: 'kwon2023efficient', citeAs: 'vllmPaper', title: kwon.title, file: uriOf('/ws/bib/refs.bib') }]);
    // Already cited under its own key: nothing to add to the citation.
    const again = docAt('/ws/main.tex', 'latex', `\\bibliography{bib/refs}\n\\cite{vllmPaper,${CURSOR}}\n`);
    const none = await service.planCitation(again.doc, again.position, ['kwon2023efficient']);
    expect(none.edit).toBeUndefined();
    expect(none.added).toEqual([]);
  });

  it('leaves the bibliography alone when syncBibliography is off', async () => {
    const { service, ws } = setup({ files: { '/ws/refs.bib': SMITH }, settings: { syncBibliography: false } });
    const { doc, position, offset } = docAt('/ws/main.tex', 'latex', `\\bibliography{refs}\n${CURSOR}\n`);
    const plan = await service.planCitation(doc, position, ['kwon2023efficient']);
    expect(plan).toEqual({ version: 1, edit: { offset, length: 0, text: '\\cite{kwon2023efficient}' }, added: ['kwon2023efficient'], reused: [], bibliography: { kind: 'none' } });
    expect(ws.reads).toEqual([]);
  });

  it('writes the configured LaTeX command and Markdown citations', async () => {
    const latex = setup({ settings: { latexCommand: 'citep' } });
    const l = docAt('/ws/main.tex', 'latex', `See ${CURSOR}.`);
    expect((await latex.service.planCitation(l.doc, l.position, ['kwon2023efficient', 'yu2022orca'])).edit)
      .toEqual({ offset: 4, length: 0, text: '\\citep{kwon2023efficient,yu2022orca}' });
    const md = setup({ files: { '/ws/refs.bib': SMITH } });
    const m = docAt('/ws/a.md', 'markdown', `---\nbibliography: refs.bib\n---\nSee [@smith2021paging; ${CURSOR}].`);
    const plan = await md.service.planCitation(m.doc, m.position, ['kwon2023efficient', 'yu2022orca']);
    // The blank before the cursor is replaced: `[@smith2021paging; @kwon2023efficient; @yu2022orca]`.
    expect(plan.edit).toEqual({ offset: m.offset - 1, length: 1, text: ' @kwon2023efficient; @yu2022orca' });
    const bare = docAt('/ws/a.md', 'markdown', `---\nbibliography: refs.bib\n---\nSee ${CURSOR}.`);
    expect((await md.service.planCitation(bare.doc, bare.position, ['kwon2023efficient'])).edit)
      .toEqual({ offset: bare.offset, length: 0, text: '[@kwon2023efficient]' });
    expect(plan.bibliography).toMatchObject({ kind: 'insert', uri: uriOf('/ws/refs.bib'), keys: ['kwon2023efficient', 'yu2022orca'] });
  });
});

describe('planInsertion', () => {
  it('creates a missing references.bib in the workspace', async () => {
    const { service } = setup();
    expect(await service.planInsertion(URI.file('/ws/references.bib'), ['kwon2023efficient', 'nosuch1999']))
      .toEqual({ kind: 'create', uri: uriOf('/ws/references.bib'), text: kwonBib, keys: ['kwon2023efficient'] });
  });

  it('inserts into an existing file the entries it lacks, and nothing when it has them all', async () => {
    const raw = `${SMITH}`;
    const { service } = setup({ files: { '/ws/references.bib': raw } });
    expect(await service.planInsertion(URI.file('/ws/references.bib'), ['kwon2023efficient', 'smith2021paging'])).toEqual({
      kind: 'insert', uri: uriOf('/ws/references.bib'), keys: ['kwon2023efficient'], document: undefined,
      disk: { offset: raw.length, text: `\n${kwonBib}`, length: raw.length, hash: textHash(raw), editorSafe: true },
    });
    expect(await service.planInsertion(URI.file('/ws/references.bib'), ['smith2021PAGING'])).toEqual({ kind: 'none' });
  });

  it('refuses files outside the workspace, unreadable ones and other formats', async () => {
    const { service, ws } = setup({ files: { '/elsewhere/refs.bib': SMITH, '/ws/broken.bib': '@misc{a, title = {A}\n' } });
    expect(await service.planInsertion(URI.file('/elsewhere/refs.bib'), ['kwon2023efficient']))
      .toEqual({ kind: 'refuse', uri: uriOf('/elsewhere/refs.bib'), reason: 'outside-workspace', keys: [] });
    expect(refusalText({ reason: 'outside-workspace', keys: [] })).toBe('is outside the workspace; it was not changed');
    expect(ws.reads).toEqual([]);
    expect(await service.planInsertion(URI.file('/ws/broken.bib'), ['kwon2023efficient'])).toMatchObject({ kind: 'refuse', uri: uriOf('/ws/broken.bib'), line: 1, column: 1 });
    // A folder named like a bibliography is not created over.
    ws.write('/ws/old.bib/readme.txt', 'a folder');
    expect(await service.planInsertion(URI.file('/ws/old.bib'), ['kwon2023efficient'])).toEqual({
      kind: 'refuse', uri: uriOf('/ws/old.bib'), reason: 'not-regular', keys: ['kwon2023efficient'],
    });
    expect(refusalText({ reason: 'not-regular', keys: ['kwon2023efficient'] })).toBe('not a regular file; it was not changed; add kwon2023efficient by hand');
    expect(await service.planInsertion(URI.file('/ws/notes.txt'), ['kwon2023efficient']))
      .toEqual({ kind: 'refuse', uri: uriOf('/ws/notes.txt'), reason: 'format', keys: [] });
  });
});

describe('planDeclaration and citedKeys', () => {
  it('declares references.bib before \\end{document} in the document\'s CRLF line endings, on its version', () => {
    const { service } = setup();
    const doc = docOf('/ws/main.tex', 'latex', '\\documentclass{article}\r\n\\begin{document}\r\n\\cite{a}\r\n\\end{document}\r\n', 7);
    const text = doc.getText();
    expect(service.planDeclaration(doc, 'references.bib')).toEqual({
      version: 7,
      insertions: [{ offset: text.indexOf('\\end{document}'), text: '\\bibliographystyle{plain}\r\n\\bibliography{references}\r\n' }],
    });
    expect(service.planDeclaration(docOf('/ws/part.tex', 'latex', '\\cite{a}\n'), 'references.bib')).toBeUndefined();
  });

  it('adds bibliography: to Markdown front matter, or a front matter block when there is none', () => {
    const { service } = setup();
    const withFm = docOf('/ws/note.md', 'markdown', '---\ntitle: T\n---\n\nText [@a].\n');
    expect(service.planDeclaration(withFm, 'references.bib')!.insertions).toEqual([{ offset: '---\ntitle: T\n'.length, text: 'bibliography: references.bib\n' }]);
    const bare = docOf('/ws/bare.md', 'markdown', 'Text [@a].\n');
    expect(service.planDeclaration(bare, 'references.bib')!.insertions).toEqual([{ offset: 0, text: '---\nbibliography: references.bib\n---\n\n' }]);
  });

  it('lists the cited keys in order, each once', async () => {
    const { service } = setup();
    expect(await service.citedKeys(docOf('/ws/main.tex', 'latex', '\\cite{b,a} % \\cite{c}\n\\citep{b,d}\n'))).toEqual(['b', 'a', 'd']);
    expect(await service.citedKeys(docOf('/ws/note.md', 'markdown', 'See [@x; @y] and @x.\n'))).toEqual(['x', 'y']);
  });
});

describe('editors without our UI (clientUi false)', () => {
  it('hover has no details command link, definition no mlsys-papers: document, code actions no replacement search', async () => {
    const { service } = setup({ clientUi: false });
    const doc = docOf('/ws/main.tex', 'latex', '\\cite{kwon2023efficient,nosuch1999}\n');
    const hover = await service.hover(doc, doc.positionAt(doc.getText().indexOf('kwon') + 2));
    expect((hover!.contents as { value: string }).value).toContain('PagedAttention');
    expect((hover!.contents as { value: string }).value).not.toContain('command:');
    expect(await service.definition(doc, doc.positionAt(doc.getText().indexOf('kwon') + 2))).toBeUndefined();
    const diags = await service.diagnostics(doc);
    expect(diags.map((d) => d.code)).toEqual([DiagnosticCodes.unknown]);
    expect(await service.codeActions(doc, diags[0]!.range, diags)).toEqual([]);
  });
});

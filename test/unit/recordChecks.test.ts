/**
 * The record checks (`src/core/checks/`) on the real corpus: which entries of a writer's
 * bibliography are preprints with a version of record, which fields disagree with the verified
 * record, and what is never flagged (form-only differences, journal extensions, workshop versions,
 * arXiv-only works, similar titles); then the same through the citation service (diagnostics,
 * quick fixes, settings, libraries, hover).
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type CodeAction, type Diagnostic, type TextDocumentEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { planEntryRewrite } from '../../src/core/bibliography/planRewrite.js';
import { applySplices } from '../../src/core/bibliography/fileEdit.js';
import { checkBibFile, fixOf, type RecordFinding } from '../../src/core/checks/checkRecords.js';
import { findingMessage } from '../../src/core/checks/findingText.js';
import { RecordMatcher } from '../../src/core/checks/matchRecord.js';
import { corpusView, DiagnosticCodes, ServiceCommands } from '../../src/core/service/types.js';
import { scopeSettings, type Settings } from '../../src/core/config/settings.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { onlySplice, realCorpus } from './helpers.js';
import { serviceOver } from './memoryWorkspace.js';

const matcher = () => RecordMatcher.of(realCorpus().entries);
const check = (text: string, path = '/ws/refs.bib'): RecordFinding[] => checkBibFile(readBibFile(path, text)!, matcher());
const kinds = (text: string, path?: string) => check(text, path).map((f) => `${f.key}:${f.kind}:${f.record.key}${f.kind === 'mismatch' ? `:${f.fields.map((m) => `${m.field}/${m.reason}`).join(',')}` : ''}`);

const VLLM_AUTHORS = 'Kwon, Woosuk and Li, Zhuohan and Zhuang, Siyuan and Sheng, Ying and Zheng, Lianmin and Yu, Cody Hao and Gonzalez, Joseph E. and Zhang, Hao and Stoica, Ion';
const ORCA_AUTHORS = 'Yu, Gyeong-In and Jeong, Joo Seong and Kim, Geon-Woo and Kim, Soojeong and Chun, Byung-Gon';
const ORCA_TITLE = 'Orca: A Distributed Serving System for {Transformer-Based} Generative Models';
const OSDI22 = '16th USENIX Symposium on Operating Systems Design and Implementation (OSDI 22)';

/** An Orca entry as the record has it, with fields overridden. */
function orca(over: Record<string, string> = {}, type = 'inproceedings', key = 'yu2022orca'): string {
  const f = { title: ORCA_TITLE, author: ORCA_AUTHORS, booktitle: OSDI22, year: '2022', pages: '521--538', ...over };
  return `@${type}{${key},\n${Object.entries(f).filter(([, v]) => v !== '').map(([k, v]) => `  ${k} = {${v}},`).join('\n')}\n}\n`;
}

describe('preprints with a version of record', () => {
  it.each([
    ['Google Scholar', '@article{kwon2023vllm,\n  title={Efficient memory management for large language model serving with pagedattention},\n  author={Kwon, Woosuk and Li, Zhuohan and others},\n  journal={arXiv preprint arXiv:2309.06180},\n  year={2023}\n}\n'],
    ['DBLP (CoRR)', '@article{DBLP:journals/corr/abs-2309-06180,\n  author = {Woosuk Kwon and Zhuohan Li},\n  title = {Efficient Memory Management for Large Language Model Serving with PagedAttention},\n  journal = {CoRR},\n  volume = {abs/2309.06180},\n  year = {2023},\n  eprinttype = {arXiv},\n  eprint = {2309.06180}\n}\n'],
    ['Semantic Scholar', '@article{Kwon2023EfficientMM,\n  title={Efficient Memory Management for Large Language Model Serving with PagedAttention},\n  author={Woosuk Kwon and Zhuohan Li},\n  journal={ArXiv},\n  year={2023},\n  volume={abs/2309.06180}\n}\n'],
    ['arXiv', '@misc{kwon2023efficient,\n  title={Efficient Memory Management for Large Language Model Serving with PagedAttention},\n  author={Woosuk Kwon and Zhuohan Li},\n  year={2023},\n  eprint={2309.06180},\n  archivePrefix={arXiv},\n  primaryClass={cs.LG}\n}\n'],
    ['Zotero', '@misc{kwon_efficient_2023,\n  title = {Efficient {Memory} {Management} for {Large} {Language} {Model} {Serving} with {PagedAttention}},\n  url = {http://arxiv.org/abs/2309.06180},\n  doi = {10.48550/arXiv.2309.06180},\n  publisher = {arXiv},\n  author = {Kwon, Woosuk},\n  year = {2023},\n  note = {arXiv:2309.06180 [cs]},\n}\n'],
    ['by title, year and first author', '@misc{vllm,\n  title={Efficient Memory Management for Large Language Model Serving with {PagedAttention}},\n  author={Woosuk Kwon and others},\n  year={2023},\n  howpublished={arXiv}\n}\n'],
  ])('are found in a %s export', (_, bib) => {
    const [f] = check(bib);
    expect(f).toMatchObject({ kind: 'version-of-record', record: { key: 'kwon2023efficient' } });
    expect(check(bib)).toHaveLength(1);
  });

  it('says where the work appeared, and where that comes from', () => {
    const [f] = check('@article{k, title={x}, author={A, B}, journal={arXiv preprint arXiv:2309.06180}, year={2023}}');
    expect(findingMessage(f!)).toBe("arXiv:2309.06180 appeared at SOSP '23 (pp. 611–626): cite the version of record (kwon2023efficient; dblp:conf/sosp/KwonLZ0ZY0ZS23)");
  });

  it('are found in CSL-JSON and CSL-YAML (number, URL, DOI, container arXiv)', () => {
    const json = JSON.stringify([{ id: 'kwon', type: 'article', title: 'Efficient Memory Management for Large Language Model Serving with PagedAttention', number: 'arXiv:2309.06180', issued: { 'date-parts': [[2023]] } }], null, 2);
    expect(kinds(json, '/ws/refs.json')).toEqual(['kwon:version-of-record:kwon2023efficient']);
    const yaml = 'references:\n- id: kwon\n  type: article\n  title: Whatever\n  URL: https://arxiv.org/abs/2309.06180v2\n';
    expect(kinds(yaml, '/ws/refs.yaml')).toEqual(['kwon:version-of-record:kwon2023efficient']);
  });

  it('are not flagged when the work is arXiv-only in the corpus, or the entry already cites a venue', () => {
    expect(check('@misc{y, title={LLM Inference Unveiled: Survey and Roofline Model Insights}, author={Yuan, Zhihang}, year={2024}, eprint={2402.16363}, archivePrefix={arXiv}}')).toEqual([]);
    expect(check(`@inproceedings{k, title={Efficient Memory Management for Large Language Model Serving with PagedAttention}, author={${VLLM_AUTHORS}}, booktitle={Proceedings of the 29th Symposium on Operating Systems Principles}, year={2023}, pages={611--626}, eprint={2309.06180}, archivePrefix={arXiv}}`)).toEqual([]);
  });
});

describe('fields that disagree with the verified record', () => {
  it('flags the year, the pages, the title and the authors, one finding per entry', () => {
    expect(kinds(orca({ year: '2021' }))).toEqual(['yu2022orca:mismatch:yu2022orca:year/differs']);
    expect(kinds(orca({ pages: '521--537' }))).toEqual(['yu2022orca:mismatch:yu2022orca:pages/differs']);
    expect(kinds(orca({ author: 'Yu, Gyeong-In and Jeong, Joo Seong and others' }))).toEqual(['yu2022orca:mismatch:yu2022orca:authors/authors-truncated']);
    expect(kinds(orca({ author: 'Yu, Gyeong-In and Jeong, Joo Seong and et al.' }))).toEqual(['yu2022orca:mismatch:yu2022orca:authors/authors-truncated']);
    // Names the record does not have, in place of names it has (a list made up): both said.
    expect(check(orca({ author: 'Yu, Gyeong-In and Smith, Ann and Kim, Geon-Woo' }))[0]).toMatchObject({ fields: [{ field: 'authors', reason: 'authors-misspelled', found: 'Ann Smith', expected: 'Joo Seong Jeong; Byung-Gon Chun' }] });
    expect(kinds(orca({ author: 'Yu, Gyeong-In and Jeong, Joo Seong and Kim, Geon-Woo and Kim, Soojeong and Chung, Byung-Gon' }))).toEqual(['yu2022orca:mismatch:yu2022orca:authors/authors-misspelled']);
    expect(kinds(orca({ author: 'Yu, Gyeong-In and Jeong, Joo Seong and Kim, Geon-Woo and Kim, Soojeong' }))).toEqual(['yu2022orca:mismatch:yu2022orca:authors/authors-missing']);
    expect(kinds(orca({ year: '2023', pages: '1--10' }))).toEqual(['yu2022orca:mismatch:yu2022orca:year/differs,pages/differs']);
  });

  it('compares the title and the venue when the DOI says it is the same publication', () => {
    const kwon = (over: string) => `@inproceedings{k, author={${VLLM_AUTHORS}}, year={2023}, pages={611--626}, doi={10.1145/3600006.3613165}, ${over}}`;
    expect(kinds(kwon('title={Efficient Memory Management for LLM Serving with PagedAttention}, booktitle={SOSP}'))).toEqual(['k:mismatch:kwon2023efficient:title/differs']);
    expect(kinds(kwon('title={Efficient Memory Management for Large Language Model Serving with PagedAttention}, booktitle={OSDI}'))).toEqual(['k:mismatch:kwon2023efficient:venue/differs']);
  });

  it('lists each field with the verified value and its source', () => {
    const [f] = check(orca({ year: '2021', author: 'Yu, Gyeong-In and others' }));
    expect(findingMessage(f!)).toBe('Differs from the verified record of yu2022orca (usenix:280922): authors: cut short to "and others"; the record lists all of them: Gyeong-In Yu; Joo Seong Jeong; Geon-Woo Kim; Soojeong Kim; Byung-Gon Chun; year: 2021, verified 2022');
  });

  it.each([
    ['braces and case', { title: '{O}rca: a distributed serving system for transformer-based generative models' }],
    ['a double-braced title', { title: `{${ORCA_TITLE}}` }],
    ['-- as - or –', { pages: '521-538' }],
    ['an en dash', { pages: '521–538' }],
    ['"Proc. of" and a short name', { booktitle: 'Proc. of OSDI' }],
    ['the long name without the number', { booktitle: 'Proceedings of the USENIX Symposium on Operating Systems Design and Implementation' }],
    ['ISO 4 abbreviations', { booktitle: 'Proc. USENIX Symp. Oper. Syst. Des. Implement.' }],
    ['abbreviated given names', { author: 'Yu, G.-I. and Jeong, J. S. and Kim, G.-W. and Kim, S. and Chun, B.-G.' }],
    ['names written given name first', { author: 'Gyeong-In Yu and Joo Seong Jeong and Geon-Woo Kim and Soojeong Kim and Byung-Gon Chun' }],
    ['TeX accents and a hyphen', { author: 'Yu, Gyeong{-}In and Jeong, Joo Seong and Kim, Geon-Woo and Kim, Soojeong and Chun, Byung{-}Gon' }],
    ['a start page only', { pages: '521' }],
    ['"and others" after every name', { author: `${ORCA_AUTHORS} and others` }],
    ['DBLP\'s homonym numbers, even mangled', { author: 'Gyeong-In Yu 0001 and Joo Seong Jeong and 0002, Geon-Woo Kim and Soojeong Kim and Byung-Gon Chun' }],
    ['an initial more (H. Brendan McMahan for Brendan McMahan)', { author: 'Yu, X. Gyeong-In and Jeong, Joo Seong and Kim, Geon-Woo and Kim, Soojeong and Chun, Byung-Gon' }],
  ])('is silent on differences in form only: %s', (_, over) => {
    expect(check(orca(over))).toEqual([]);
  });

  it('is silent on a journal extension, a workshop version, another venue, and a different work', () => {
    // A journal version a year later (the same title): another publication.
    expect(check(orca({ booktitle: '', journal: 'ACM Transactions on Computer Systems', year: '2023' }, 'article'))).toEqual([]);
    // A workshop version with the conference paper's title.
    expect(check(orca({ booktitle: 'Workshop on Machine Learning Systems', year: '2021' }))).toEqual([]);
    // Another conference: not the record's publication, so nothing is compared.
    expect(check(orca({ booktitle: 'Proceedings of the ACM Symposium on Cloud Computing', pages: '1--12' }))).toEqual([]);
    // A similar title, another first author, a year two apart: other works.
    expect(check(orca({ title: 'Orca: A Distributed Serving System for Transformer-Based Models', year: '2021' }))).toEqual([]);
    expect(check(orca({ author: 'Smith, Ann and Chun, Byung-Gon', year: '2021' }))).toEqual([]);
    expect(check(orca({ year: '2020' }))).toEqual([]);
  });

  it('reads a journal whose name is all common words (Proceedings of the IEEE) as its own name', () => {
    // Found on the grown corpus: every word of "Proceedings of the IEEE" is a stop word, so the
    // record's own journal name was called another venue.
    const sze = (journal: string, year = '2017') => `@article{s, title={Efficient Processing of Deep Neural Networks: A Tutorial and Survey}, author={Sze, Vivienne and Chen, Yu-Hsin and Yang, Tien-Ju and Emer, Joel S.}, journal={${journal}}, volume={105}, number={12}, pages={2295--2329}, year={${year}}, doi={10.1109/JPROC.2017.2761740}}`;
    for (const j of ['Proceedings of the IEEE', 'Proc. IEEE', '{Proceedings of the IEEE}']) expect(check(sze(j)), j).toEqual([]);
    expect(kinds(sze('Proceedings of the IEEE', '2018'))).toEqual(['s:mismatch:sze2017efficient:year/differs']);
    expect(kinds(sze('IEEE Micro'))).toEqual(['s:mismatch:sze2017efficient:venue/differs']);
  });

  it('reads a DBLP proceedings title without its place and dates, and a name in the other order', () => {
    // Found on the grown corpus in a real ML-systems book (cs249r): Crossref's and DBLP's names of
    // the same proceedings, and Li Fei-Fei as the ImageNet paper prints her name (the record: Fei-Fei Li).
    const jacob = (booktitle: string) => `@inproceedings{j, title={Quantization and Training of Neural Networks for Efficient Integer-Arithmetic-Only Inference}, author={Jacob, Benoit and Kligys, Skirmantas and Chen, Bo and Zhu, Menglong and Tang, Matthew and Howard, Andrew G. and Adam, Hartwig and Kalenichenko, Dmitry}, booktitle={${booktitle}}, pages={2704--2713}, year={2018}, doi={10.1109/CVPR.2018.00286}}`;
    expect(check(jacob('2018 IEEE/CVF Conference on Computer Vision and Pattern Recognition'))).toEqual([]);
    expect(kinds(jacob('2018 IEEE International Conference on Robotics and Automation'))).toEqual(['j:mismatch:jacob2018quantization:venue/differs']);
    const deng = (author: string, booktitle = '2009 IEEE Conference on Computer Vision and Pattern Recognition') => `@inproceedings{d, title={ImageNet: A large-scale hierarchical image database}, author={${author}}, booktitle={${booktitle}}, pages={248--255}, year={2009}, doi={10.1109/cvpr.2009.5206848}}`;
    expect(check(deng('Deng, Jia and Dong, Wei and Socher, Richard and Li, Li-Jia and Kai Li and Li Fei-Fei'))).toEqual([]);
    expect(kinds(deng('Deng, Jia and Dong, Wei and Socher, Richard and Li, Li-Jia and Kai Li and Fei-Fei Wang'))).toEqual(['d:mismatch:deng2009imagenet:authors/authors-misspelled']);
  });

  it('is silent on another edition\'s pagination: the same number of pages from another first page', () => {
    // CVF's open-access proceedings and IEEE Xplore paginate CVPR and ICCV apart (Mask R-CNN:
    // 2961–2969 and 2980–2988); found on the grown corpus in d2l.ai's bibliography.
    expect(check(orca({ pages: '501--518' }))).toEqual([]);
    expect(kinds(orca({ pages: '501--517' }))).toEqual(['yu2022orca:mismatch:yu2022orca:pages/differs']);
    expect(kinds(orca({ pages: '501' }))).toEqual(['yu2022orca:mismatch:yu2022orca:pages/differs']);
  });

  it('reads VLDB\'s journal under its other names', () => {
    const fsdp = (journal: string) => `@article{z, title={PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel}, author={Zhao, Yanli and others}, journal={${journal}}, volume={16}, number={12}, pages={3848--3860}, year={2023}}`;
    for (const j of ['Proc. VLDB Endow.', 'PVLDB', 'Proceedings of the VLDB Endowment']) expect(kinds(fsdp(j))).toEqual(['z:mismatch:zhao2023pytorch:authors/authors-truncated']);
  });
});

describe('the rewrite', () => {
  it('keeps the key, the writer\'s own fields and layout, and every byte around the entry', () => {
    const before = '% my notes\n@string{x = "y"}\n\n';
    const after = '\n@misc{other, title={T}}\n';
    const entry = '@Article{kwon2023vllm,\n    Title   = "Efficient memory management for LLM serving",\n    Author  = "Kwon, Woosuk and others",\n    Journal = "arXiv preprint arXiv:2309.06180",\n    Year    = 2023,\n    File    = "/home/me/kwon.pdf",\n    Keywords= "serving",\n}';
    const text = before + entry + after;
    const file = readBibFile('/ws/refs.bib', text)!;
    const [f] = checkBibFile(file, matcher());
    const plan = onlySplice(planEntryRewrite(file, f!.entry, fixOf(f!)));
    const out = applySplices(text, [plan]);
    expect(out.startsWith(before)).toBe(true);
    expect(out.endsWith(after)).toBe(true);
    const field = (name: string, value: string) => (name === 'File' || name === 'Keywords' ? `    ${name}${name === 'File' ? '    ' : ''}= ${value},` : `    ${name.length < 8 ? name.padEnd(8) : `${name} `}= ${value},`);
    expect(plan.text).toBe([
      '@InProceedings{kwon2023vllm,',
      field('Author', `"${VLLM_AUTHORS}"`),
      field('Title', '"Efficient Memory Management for Large Language Model Serving with {PagedAttention}"'),
      field('Booktitle', '"Proceedings of the {ACM} {SIGOPS} 29th Symposium on Operating Systems Principles"'),
      field('Year', '2023'),
      field('Pages', '"611--626"'),
      field('Publisher', '"Association for Computing Machinery"'),
      field('Doi', '"10.1145/3600006.3613165"'),
      field('Eprint', '"2309.06180"'),
      field('Archiveprefix', '"arXiv"'),
      field('Eprinttype', '"arxiv"'),
      field('Url', '"https://dl.acm.org/doi/10.1145/3600006.3613165"'),
      field('File', '"/home/me/kwon.pdf"'),
      field('Keywords', '"serving"'),
      '}',
    ].join('\n'));
    expect(checkBibFile(readBibFile('/ws/refs.bib', out)!, matcher())).toEqual([]);
  });

  it('sets one field in place, in its own delimiters', () => {
    const text = orca({ year: '2021', pages: '1--10' });
    const file = readBibFile('/ws/refs.bib', text)!;
    const [f] = checkBibFile(file, matcher());
    const year = onlySplice(planEntryRewrite(file, f!.entry, fixOf(f!, 'year')));
    expect(applySplices(text, [year])).toBe(orca({ pages: '1--10' }));
    const all = onlySplice(planEntryRewrite(file, f!.entry, fixOf(f!)));
    expect(applySplices(text, [all])).toBe(orca());
  });

  it('rewrites a CSL-JSON item and a CSL-YAML item in their own indentation', () => {
    const json = '[\n    {\n        "id": "kwon",\n        "type": "article",\n        "title": "x",\n        "number": "arXiv:2309.06180",\n        "note": "mine"\n    }\n]\n';
    const jf = readBibFile('/ws/refs.json', json)!;
    const [jfinding] = checkBibFile(jf, matcher());
    const jout = applySplices(json, [onlySplice(planEntryRewrite(jf, jfinding!.entry, fixOf(jfinding!)))]);
    const item = (JSON.parse(jout) as Record<string, unknown>[])[0]!;
    expect(item).toMatchObject({ id: 'kwon', type: 'paper-conference', DOI: '10.1145/3600006.3613165', note: 'mine', page: '611-626' });
    expect(jout).toMatch(/^\[\n {4}\{\n {8}"id": "kwon",\n/);
    expect(jout.endsWith('\n    }\n]\n')).toBe(true);
    const yaml = '# mine\nreferences:\n  - id: kwon\n    type: article\n    title: x\n    URL: https://arxiv.org/abs/2309.06180\n    note: mine\n  - id: other\n    title: y\n';
    const yf = readBibFile('/ws/refs.yaml', yaml)!;
    const [yfinding] = checkBibFile(yf, matcher());
    const yout = applySplices(yaml, [onlySplice(planEntryRewrite(yf, yfinding!.entry, fixOf(yfinding!)))]);
    expect(yout.startsWith('# mine\nreferences:\n  - id: kwon\n    type: paper-conference\n')).toBe(true);
    expect(yout.endsWith('    note: mine\n  - id: other\n    title: y\n')).toBe(true);
    expect(readBibFile('/ws/refs.yaml', yout)!.entries.map((e) => e.key)).toEqual(['kwon', 'other']);
  });
});

/** A settings override for the service. */
const withSettings = (over: Partial<Settings>) => ({ config: () => scopeSettings(over) });

/** A document's text after a code action's edit. */
function applied(doc: TextDocument, action: CodeAction): string {
  const change = action.edit!.documentChanges![0] as TextDocumentEdit;
  expect(change.textDocument).toEqual({ uri: doc.uri, version: doc.version });
  return TextDocument.applyEdits(doc, change.edits);
}

describe('the citation service', () => {
  const BIB = `% refs\n${orca({ year: '2021' })}\n@article{kwon2023vllm,\n  title={Efficient memory management for large language model serving with pagedattention},\n  author={Kwon, Woosuk and others},\n  journal={arXiv preprint arXiv:2309.06180},\n  year={2023},\n}\n\n@misc{dao, title={FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning}, author={Dao, Tri}, year={2023}, eprint={2307.08691}, archivePrefix={arXiv}}\n`;
  const doc = TextDocument.create(URI.file('/ws/refs.bib').toString(), 'bibtex', 3, BIB);

  it('puts one Information diagnostic on the key of each entry found, with a quick fix that is an edit of the document', async () => {
    const service = serviceOver({ '/ws/refs.bib': BIB });
    const diags = await service.diagnostics(doc);
    expect(diags.map((d) => [d.code, d.severity, BIB.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))])).toEqual([
      [DiagnosticCodes.recordMismatch, DiagnosticSeverity.Information, 'yu2022orca'],
      [DiagnosticCodes.versionOfRecord, DiagnosticSeverity.Information, 'kwon2023vllm'],
      [DiagnosticCodes.versionOfRecord, DiagnosticSeverity.Information, 'dao'],
    ]);
    const actions = await service.codeActions(doc, diags[1]!.range, [diags[1]!]);
    expect(actions.map((a) => a.title)).toEqual([
      "Rewrite kwon2023vllm as the version of record (SOSP '23)",
      'Rewrite every preprint of this file that has a version of record (2 entries)',
    ]);
    const one = applied(doc, actions[0]!);
    expect(one.slice(0, BIB.indexOf('@article{kwon2023vllm'))).toBe(BIB.slice(0, BIB.indexOf('@article{kwon2023vllm')));
    expect(one).toContain('@inproceedings{kwon2023vllm,');
    const all = applied(doc, actions[1]!);
    expect(all).toContain("booktitle={The Twelfth International Conference on Learning Representations}");
    expect((actions[1]!.edit!.documentChanges![0] as TextDocumentEdit).edits).toHaveLength(2);
    const fixes = await service.codeActions(doc, diags[0]!.range, [diags[0]!]);
    expect(fixes.map((a) => a.title)).toEqual(['Set year of yu2022orca to the verified value (usenix:280922)']);
    expect(applied(doc, fixes[0]!)).toBe(BIB.replace('year = {2021}', 'year = {2022}'));
  });

  it('follows the setting: off, or a Warning before a camera-ready', async () => {
    expect(await serviceOver({ '/ws/refs.bib': BIB }, withSettings({ recordChecks: 'off' })).diagnostics(doc)).toEqual([]);
    const warned = await serviceOver({ '/ws/refs.bib': BIB }, withSettings({ recordChecks: 'warning' })).diagnostics(doc);
    expect(warned.map((d) => d.severity)).toEqual([DiagnosticSeverity.Warning, DiagnosticSeverity.Warning, DiagnosticSeverity.Warning]);
  });

  it('never writes a library: its fix copies the entry (in VS Code), and other editors get none', async () => {
    const corpus = realCorpus();
    const library = { ...corpusView(corpus, createSearchIndex(corpus)), isLibrary: (uri: string) => uri === doc.uri };
    const view = () => ({ corpus: () => library });
    const vs = serviceOver({ '/ws/refs.bib': BIB }, { ...view(), clientUi: () => true });
    const diags = await vs.diagnostics(doc);
    expect(diags.every((d) => (d.data as { library?: boolean }).library)).toBe(true);
    const actions = await vs.codeActions(doc, diags[1]!.range, [diags[1]!]);
    expect(actions).toHaveLength(1);
    expect(actions[0]!.edit).toBeUndefined();
    expect(actions[0]!.command!.command).toBe(ServiceCommands.copyEntryText);
    expect(actions[0]!.command!.arguments![0]).toMatch(/^@inproceedings\{kwon2023vllm,\n/);
    const other = serviceOver({ '/ws/refs.bib': BIB }, view());
    expect(await other.codeActions(doc, diags[1]!.range, [diags[1]!])).toEqual([]);
  });

  it('checks CSL-JSON and CSL-YAML bibliographies, and no other JSON or YAML', async () => {
    const json = JSON.stringify([{ id: 'kwon', type: 'article', title: 'x', number: 'arXiv:2309.06180' }]);
    const jdoc = TextDocument.create(URI.file('/ws/refs.json').toString(), 'json', 1, json);
    const s = serviceOver({ '/ws/refs.json': json });
    const [d] = await s.diagnostics(jdoc);
    expect(d).toMatchObject({ code: DiagnosticCodes.versionOfRecord, severity: DiagnosticSeverity.Information });
    const [fix] = await s.codeActions(jdoc, d!.range, [d!]);
    expect(JSON.parse(applied(jdoc, fix!))).toMatchObject([{ id: 'kwon', type: 'paper-conference', DOI: '10.1145/3600006.3613165' }]);
    const pkg = TextDocument.create(URI.file('/ws/package.json').toString(), 'json', 1, '{"name": "x", "arxiv": "2309.06180"}');
    expect(await serviceOver({}).diagnostics(pkg)).toEqual([]);
  });

  it('in documents: nothing by default; at the citation when asked; "published as" in the hover', async () => {
    const tex = '\\documentclass{article}\n\\begin{document}\nPaged memory~\\cite{kwon2023vllm}.\n\\bibliography{refs}\n\\end{document}\n';
    const files = { '/ws/refs.bib': BIB, '/ws/main.tex': tex };
    const texDoc = TextDocument.create(URI.file('/ws/main.tex').toString(), 'latex', 1, tex);
    expect((await serviceOver(files).diagnostics(texDoc)).filter((d: Diagnostic) => d.code === DiagnosticCodes.versionOfRecord)).toEqual([]);
    const asked = await serviceOver(files, withSettings({ recordChecksInDocuments: 'warning' })).diagnostics(texDoc);
    expect(asked.filter((d) => d.code === DiagnosticCodes.versionOfRecord).map((d) => [d.severity, tex.slice(texDoc.offsetAt(d.range.start), texDoc.offsetAt(d.range.end))]))
      .toEqual([[DiagnosticSeverity.Warning, 'kwon2023vllm']]);
    const hover = await serviceOver(files).hover(texDoc, texDoc.positionAt(tex.indexOf('kwon2023vllm') + 3));
    expect((hover!.contents as { value: string }).value).toContain("Published as: Efficient Memory Management for Large Language Model Serving with PagedAttention, SOSP '23 \\(kwon2023efficient\\)");
  });
});

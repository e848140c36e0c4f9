/**
 * Systems named but not cited (`src/core/checks/namedSystems.ts`, `src/core/service/namedSystemHints.ts`)
 * on the real corpus: which names count, where the document is prose, once per system, a citation
 * in the sentence or anywhere of the system's works, aliases naming several works, the setting,
 * and the quick fix (the citation after the name, the entry into the bibliography).
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type TextDocumentEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { documentCitations } from '../../src/core/cite/citations.js';
import { isSystemName, SystemNames, uncitedMentions } from '../../src/core/checks/namedSystems.js';
import { LatexProject } from '../../src/core/latex/project.js';
import { DiagnosticCodes, ServiceCommands } from '../../src/core/service/types.js';
import { scopeSettings } from '../../src/core/config/settings.js';
import { realCorpus } from './helpers.js';
import { serviceOver } from './memoryWorkspace.js';

const names = () => SystemNames.of(realCorpus().entries);

/** The names hinted in a document (`alias@offset`), citing nothing but what it cites. */
function hinted(text: string, languageId = 'latex'): string[] {
  const { cited } = documentCitations(text, languageId);
  const keys = new Set(cited.map((c) => c.key));
  return uncitedMentions(text, languageId, names(), cited, (e) => keys.has(e.key)).map((m) => `${m.name.alias}@${text.slice(m.offset, m.offset + m.length) === m.name.alias ? 'ok' : 'bad'}`);
}

const tex = (body: string) => `\\documentclass{article}\n\\usepackage{vLLM}\n\\begin{document}\n${body}\n\\end{document}\n`;

describe('what counts as a system name', () => {
  it.each(['vLLM', 'PagedAttention', 'ZeRO-Offload', 'Megatron-LM', 'FlashAttention-2', 'GPipe', 'DeepSpeed', 'FSDP', 'ORCA'])('%s is a name', (alias) => {
    expect(isSystemName(alias)).toBe(true);
  });

  it.each(['JAX', 'AMP', 'DDP', 'C4', 'memory profiling', 'sequence parallelism', 'Megatron', 'Orca', 'Focus', 'Needle', 'continuous batching', 'xfuser'])('%s is not (a word, a phrase, or too short)', (alias) => {
    expect(isSystemName(alias)).toBe(false);
  });

  it('a capitalised word is not hinted (Orca, Focus, Pack are words or other products as often), its capitals are (ORCA)', () => {
    expect(hinted(tex('We compare with Orca on long prompts.'))).toEqual([]);
    expect(hinted(tex('We compare with ORCA on long prompts.'))).toEqual(['ORCA@ok']);
  });

  it('offers papers and reports only (not a repository, a post or a talk), papers first', () => {
    // Megatron-LM: tensor parallelism, 3D parallelism, sequence parallelism.
    expect(names().get('Megatron-LM')!.entries.map((e) => e.key)).toEqual(['shoeybi2019megatron', 'narayanan2021efficient', 'korthikanti2023reducing']);
    expect(names().get('vLLM')!.entries.map((e) => e.key)).toEqual(['kwon2023efficient']);
  });

  it('is not a company\'s name, and a project\'s own team does not make one', () => {
    expect(names().get('DeepSeek')).toBeUndefined();
    expect(names().get('vLLM')).toBeDefined();
  });

  it('not another version, another system, or part of a longer product name', () => {
    expect(hinted(tex('Models like PaLM-2 and PaLM-X grew, as did Gemini 2.0.'))).toEqual([]);
    // PaLM-E is a work of its own in the corpus (ICML 2023), so it is named, not another version.
    expect(hinted(tex('Models like PaLM-2 and PaLM-E grew.'))).toEqual(['PaLM-E@ok']);
    expect(hinted(tex('It runs as a vLLM-Ascend plugin.'))).toEqual([]);
    expect(hinted(tex('It is a vLLM-based engine.'))).toEqual(['vLLM@ok']);
    expect(hinted(tex('We serve with NVIDIA\'s Triton Inference Server and the Databricks Unity Catalog.'))).toEqual([]);
  });
});

describe('where a mention counts', () => {
  it('in prose, once per system, and not when a citation is in its sentence or its works are cited', () => {
    expect(hinted(tex('We build on vLLM and PagedAttention. Later vLLM again.'))).toEqual(['vLLM@ok']);
    expect(hinted(tex('We build on vLLM~\\cite{other}. Then GPipe, e.g. for pipelines, splits models.'))).toEqual(['GPipe@ok']);
    expect(hinted(tex('GPipe~\\cite{huang2019gpipe} splits models. GPipe is old.'))).toEqual([]);
    // A citation in the first mention's sentence may be the writer's own key for the system: no later mention is hinted.
    expect(hinted(tex('We serve with vLLM~\\cite{mine2020}. Later vLLM again.'))).toEqual([]);
    expect(hinted(tex('Our engine is like vLLM.\n\nWe cite kwon2023efficient elsewhere~\\cite{kwon2023efficient}.'))).toEqual([]);
  });

  it('never in comments, verbatim, math, headings, non-prose arguments, tables or URLs', () => {
    const body = [
      '% vLLM in a comment',
      '\\section{vLLM and GPipe}',
      '\\begin{verbatim}\nDeepSpeed\n\\end{verbatim}',
      '$x_{FSDP}$ and \\(PagedAttention\\)',
      '\\url{https://github.com/vllm-project/vLLM} \\href{https://x.org/GPipe}{the pipeline}',
      '\\texttt{ZeRO-Offload} \\label{sec:FlashAttention-2} \\ref{Megatron-LM}',
      '\\begin{tabular}{ll}\nDeepSpeed & 1 \\\\\n\\end{tabular}',
      'See github.com/microsoft/DeepSpeed and docs/FSDP.md.',
    ].join('\n');
    expect(hinted(tex(body))).toEqual([]);
  });

  it('in Markdown: prose only, not code, math, headings, links, comments or front matter', () => {
    const md = [
      '---', 'title: vLLM notes', '---', '', '# vLLM', '', 'Serving with `vLLM` and $GPipe$.', '', '```', 'DeepSpeed', '```', '',
      'A [link to vLLM](https://github.com/vllm-project/vllm) and <!-- FSDP --> text.', '', 'Here FlashAttention-2 matters [@dao2022flashattention].', '',
      'And ZeRO-Offload moves optimizer state.',
    ].join('\n');
    expect(hinted(md, 'markdown')).toEqual(['ZeRO-Offload@ok']);
  });
});

describe('the service', () => {
  const TEX = tex('Serving systems such as vLLM page the KV cache.\n\\bibliography{refs}');
  const uri = URI.file('/ws/main.tex').toString();
  const doc = TextDocument.create(uri, 'latex', 1, TEX);

  it('gives a Hint with a fix per work: the citation after the name, and the entry into the bibliography', async () => {
    const service = serviceOver({ '/ws/main.tex': TEX, '/ws/refs.bib': '' });
    const diags = (await service.diagnostics(doc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem);
    expect(diags.map((d) => [d.severity, TEX.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)), d.message])).toEqual([
      [DiagnosticSeverity.Hint, 'vLLM', 'vLLM is named but not cited; the MLSys Papers corpus has its work: kwon2023efficient'],
    ]);
    const actions = await service.codeActions(doc, diags[0]!.range, diags);
    expect(actions.map((a) => a.title)).toEqual(['Cite kwon2023efficient (Efficient Memory Management for Large Language Model Serving with…)']);
    // A name of several works offers each, with the work's title.
    const mega = tex('Training with Megatron-LM scales.\n\\bibliography{refs}');
    const megaDoc = TextDocument.create(URI.file('/ws/mega.tex').toString(), 'latex', 1, mega);
    const s2 = serviceOver({ '/ws/mega.tex': mega, '/ws/refs.bib': '' });
    const md = (await s2.diagnostics(megaDoc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem);
    expect((await s2.codeActions(megaDoc, md[0]!.range, md)).map((a) => a.title)).toEqual([
      'Cite shoeybi2019megatron (Megatron-LM: Training Multi-Billion Parameter Language Models Using…)',
      'Cite narayanan2021efficient (Efficient Large-Scale Language Model Training on GPU Clusters Using…)',
      'Cite korthikanti2023reducing (Reducing Activation Recomputation in Large Transformer Models)',
    ]);
    const edit = actions[0]!.edit!.documentChanges![0] as TextDocumentEdit;
    expect(TextDocument.applyEdits(doc, edit.edits)).toBe(TEX.replace('such as vLLM page', 'such as vLLM~\\cite{kwon2023efficient} page'));
    expect(actions[0]!.command).toEqual({ title: actions[0]!.title, command: ServiceCommands.addToBibliography, arguments: [uri, 'kwon2023efficient'] });
  });

  it('cites the bibliography\'s own key for the same work, and adds nothing then', async () => {
    const bib = '@inproceedings{mine, title={Efficient Memory Management for Large Language Model Serving with PagedAttention}, author={Kwon, Woosuk}, booktitle={SOSP}, year={2023}, doi={10.1145/3600006.3613165}}\n';
    const service = serviceOver({ '/ws/main.tex': TEX, '/ws/refs.bib': bib });
    const diags = (await service.diagnostics(doc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem);
    const [first] = await service.codeActions(doc, diags[0]!.range, diags);
    expect(first!.title).toMatch(/^Cite mine /);
    expect(first!.command).toBeUndefined();
    // Cited under its own key: no hint at all.
    const cited = TEX.replace('page the KV cache.', 'page the KV cache~\\cite{mine}.');
    const citedDoc = TextDocument.create(uri, 'latex', 2, cited);
    expect((await serviceOver({ '/ws/main.tex': cited, '/ws/refs.bib': bib }).diagnostics(citedDoc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem)).toEqual([]);
  });

  it('in a LaTeX project, what the other files cite counts: a section names what the introduction cites', async () => {
    const main = '\\documentclass{article}\n\\begin{document}\n\\input{intro}\n\\input{impl}\n\\bibliography{refs}\n\\end{document}\n';
    const intro = 'Paged KV caches~\\cite{kwon2023efficient} help.\n';
    const impl = 'We build on vLLM and GPipe.\n';
    const files = { '/ws/main.tex': main, '/ws/intro.tex': intro, '/ws/impl.tex': impl, '/ws/refs.bib': '' };
    const project = new LatexProject();
    for (const [path, text] of Object.entries(files)) if (path.endsWith('.tex')) project.set(URI.file(path), text);
    const service = serviceOver(files, { project });
    const implDoc = TextDocument.create(URI.file('/ws/impl.tex').toString(), 'latex', 1, impl);
    const hints = (await service.diagnostics(implDoc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem);
    expect(hints.map((d) => impl.slice(implDoc.offsetAt(d.range.start), implDoc.offsetAt(d.range.end)))).toEqual(['GPipe']);
  });

  it('is off with one setting, and in Markdown the fix writes a Pandoc citation', async () => {
    const off = serviceOver({ '/ws/main.tex': TEX }, { config: () => scopeSettings({ namedSystemHints: false }) });
    expect((await off.diagnostics(doc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem)).toEqual([]);
    const md = '---\nbibliography: refs.bib\n---\n\nWe use GPipe for pipelines.\n';
    const mdDoc = TextDocument.create(URI.file('/ws/notes.md').toString(), 'markdown', 1, md);
    const service = serviceOver({ '/ws/notes.md': md, '/ws/refs.bib': '' });
    const diags = (await service.diagnostics(mdDoc)).filter((d) => d.code === DiagnosticCodes.uncitedSystem);
    const [fix] = await service.codeActions(mdDoc, diags[0]!.range, diags);
    expect(TextDocument.applyEdits(mdDoc, (fix!.edit!.documentChanges![0] as TextDocumentEdit).edits)).toBe(md.replace('GPipe for', 'GPipe [@huang2019gpipe] for'));
  });
});

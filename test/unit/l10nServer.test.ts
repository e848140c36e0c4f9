/**
 * The language server speaks the client's display language: given VS Code's zh-CN bundle in
 * `initializationOptions.l10n` (as the extension sends it), its diagnostics, hovers and quick fixes
 * are Chinese, and its topic paths follow the `topicLabels` setting (`auto`: the client's
 * `locale`); without a bundle (other editors, the CLI) they are English. In its own file: the l10n
 * bundle is per process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CodeActionRequest, DidChangeConfigurationNotification, DocumentDiagnosticRequest, HoverRequest, PublishDiagnosticsNotification,
  type CodeAction, type PublishDiagnosticsParams, type Diagnostic, type Hover, type MarkupContent,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { refusalText } from '../../src/core/bibliography/refusal.js';
import { ClientRequests as Requests } from '../../src/server/protocol.js';
import { ROOT, start } from './serverHarness.js';

const zh = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
const MAIN = URI.file('/ws/main.tex').toString();
/** Line 1: a corpus key the bibliography lacks, then a key nobody knows. */
const PAPER = '\\bibliography{refs}\n\\cite{kwon2023efficient,nosuch1999}.\n';
const REFS = '@article{smith2021paging,\n  title = {Paging Tricks for Everyone},\n  author = {Smith, Ann},\n  year = {2021}\n}\n';

describe('language server in Chinese', () => {
  it('says its diagnostics, quick fixes and hovers in the bundle\'s language, with Chinese topic paths', async () => {
    const settings: Record<string, unknown> = { citationStyle: 'apa', topicLabels: 'auto' };
    const s = await start({ '/ws/refs.bib': REFS }, settings, {}, { l10n: { bundle: zh } }, {}, '/ws', true, 'zh-cn');
    s.open(MAIN, 'latex', PAPER);
    const doc = { uri: MAIN };

    const report = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: doc }) as { items: Diagnostic[] };
    expect(report.items.map((d) => d.message)).toEqual([
      '“kwon2023efficient”在 MLSys Papers 语料库 中，但不在 refs.bib 中。',
      '未知的引用键“nosuch1999”：既不在 refs.bib 中，也不在 MLSys Papers 语料库中。',
    ]);
    const actions = await s.client.sendRequest(CodeActionRequest.type, { textDocument: doc, range: report.items[0]!.range, context: { diagnostics: report.items } }) as CodeAction[];
    expect(actions.map((a) => a.title)).toContain('将 kwon2023efficient 添加到参考文献');

    const hover = await s.client.sendRequest(HoverRequest.type, { textDocument: doc, position: { line: 1, character: 10 } }) as Hover;
    const text = (hover.contents as MarkupContent).value;
    expect(text).toContain('⚡ 必读 · 论文');
    expect(text).toContain('*LLM推理服务 › ');
    expect(text.endsWith('✗ 不在 refs\\.bib 中')).toBe(true);

    // A change of the setting is followed: both labels.
    settings.topicLabels = 'both';
    await s.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    const again = await s.client.sendRequest(HoverRequest.type, { textDocument: doc, position: { line: 1, character: 10 } }) as Hover;
    expect((again.contents as MarkupContent).value).toContain('*LLM inference serving · LLM推理服务 › ');
    s.dispose();
  });

  it('shows English topic labels by default to a client that gives no locale, and what the setting asks for', async () => {
    const settings: Record<string, unknown> = { citationStyle: 'apa' };
    const s = await start({ '/ws/refs.bib': REFS }, settings, {}, { l10n: { bundle: zh } });
    s.open(MAIN, 'latex', PAPER);
    const hover = async () => ((await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 1, character: 10 } }) as Hover).contents as MarkupContent).value;
    expect(await hover()).toContain('*LLM inference serving › ');
    settings.topicLabels = 'chinese';
    await s.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    expect(await hover()).toContain('*LLM推理服务 › ');
    // The older switch: both labels.
    settings.topicLabels = 'auto';
    settings.showChineseLabels = true;
    await s.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    expect(await hover()).toContain('*LLM inference serving · LLM推理服务 › ');
    s.dispose();
  });

  it('says a bibliography reader\'s problems in the bundle\'s language: in the file, at the citing document\'s \\bibliography, and in a library', async () => {
    // A missing "," (BibTeX reads entry b up to there), and a library entry with an undefined macro.
    const broken = '@article{b,\n  title = {T}\n  journal = {J},\n}\n@misc{ok,\n  title = {Fine},\n}\n';
    const lib = '@misc{k,\n  title = nomacro,\n}\n';
    const s = await start({ '/ws/refs.bib': broken, '/ws/lib.bib': lib }, { citationStyle: 'apa', libraries: ['lib.bib'] }, {}, { l10n: { bundle: zh } }, {}, '/ws', true, 'zh-cn');
    const refs = URI.file('/ws/refs.bib').toString();
    const said = 'title 的值之后应为“,”或“}”，却遇到字段 journal：两者之间缺少“,”（第 3 行）；条目 b 读取到该处为止，与 BibTeX 相同（其引用键有效）';
    s.open(refs, 'bibtex', broken);
    const own = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: refs } }) as { items: Diagnostic[] };
    expect(own.items.map((d) => [d.range.start.line, d.message])).toEqual([[0, said]]);
    s.open(MAIN, 'latex', '\\bibliography{refs}\n\\cite{ok}.\n');
    const citing = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MAIN } }) as { items: Diagnostic[] };
    expect(citing.items.map((d) => d.message)).toEqual([`refs.bib 第 1 行：${said}。其余条目的键仍会检查。`]);
    const libUri = URI.file('/ws/lib.bib').toString();
    const published = await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === libUri && p.diagnostics.length > 0);
    expect(published.diagnostics.map((d) => [d.range.start.line, d.message])).toEqual([[1, '未定义的宏 nomacro（没有 @string 定义它）；按空值读取']]);
    s.dispose();
  });

  it('refuses with a reason code, not a sentence, and the client renders it in the bundle\'s language', async () => {
    const s = await start({}, { citationStyle: 'apa', syncBibliography: true }, {}, { l10n: { bundle: zh } }, {}, '/ws', true, 'zh-cn');
    const paper = '\\begin{thebibliography}{9}\n\\bibitem{a} A.\n\\end{thebibliography}\n';
    s.open(MAIN, 'latex', paper);
    const plan = await s.client.sendRequest(Requests.planBibliography, { uri: MAIN, keys: ['kwon2023efficient'] });
    expect(plan.bibliography).toEqual({ kind: 'refuse', uri: MAIN, reason: 'thebibliography', keys: ['kwon2023efficient'] });
    expect(refusalText(plan.bibliography as Extract<typeof plan.bibliography, { kind: 'refuse' }>))
      .toBe(zh['holds the document\'s thebibliography, which MLSys Papers does not write; it was not changed; add a \\bibitem for {0} there by hand']!.replace('{0}', 'kwon2023efficient'));
  });
});

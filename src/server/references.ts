/**
 * Formatted references (CSL, through citeproc-js loaded on first use): the bundled styles and
 * locales, the user's own style file, and a bounded cache of one entry's reference for hovers and
 * completion documentation.
 */
import { URI } from 'vscode-uri';
import * as l10n from '@vscode/l10n';
import { inWorkspaceReal } from '../core/workspace/paths.js';
import { BUNDLED_STYLES, type BundledStyle } from '../core/cite/styles.js';
import type { Entry } from '../core/corpus/schema.js';
import type { ServerContext } from './serverContext.js';
import type { ServerSettings } from './serverSettings.js';
import type { ServerWorkspace } from './serverWorkspace.js';

/** The CSL locales the package holds (`csl/locales/locales-<lang>.xml`). */
const BUNDLED_LOCALES = ['en-US', 'zh-CN'] as const;

/** How many formatted references are kept (for hovers and completion documentation). */
export const FORMATTED_LIMIT = 500;

/** Formats references in the style `mlsysPapers.citationStyle` names. */
export class References {
  /** Bundled styles and locales never change while the server runs: each is read once. */
  private readonly bundled = new Map<string, Promise<string | undefined>>();
  /** The user's own style, read again only when its file changes (hovers format on every look). */
  private userStyle: { uri: string; stamp: string; xml: string } | undefined;
  /**
   * One entry's formatted reference by key, for the style and corpus in `formattedFor` (a hover
   * or a completion item asks again on every look; citeproc-js builds an engine per call). Dropped
   * when the style or the corpus changes; the oldest go beyond {@link FORMATTED_LIMIT}.
   */
  private readonly formatted = new Map<string, string | undefined>();
  private formattedFor = '';

  /**
   * @param version - changes whenever an entry may have (the corpus's and the libraries' versions)
   */
  constructor(private readonly ctx: ServerContext, private readonly settings: ServerSettings, private readonly workspace: ServerWorkspace, private readonly version: () => string) {}

  private bundledCsl(path: string): Promise<string | undefined> {
    let xml = this.bundled.get(path);
    if (!xml) this.bundled.set(path, xml = Promise.resolve(this.ctx.host.bundledCsl(path, this.workspace.bundledFiles)));
    return xml;
  }

  /**
   * The CSL style `mlsysPapers.citationStyle` names in a document's scope: a bundled style, or the
   * user's `.csl` file (read again when it changes).
   *
   * @param scope - the document whose settings name the style; the window's when absent
   * @returns the style's XML and an id that changes when the style does
   * @throws Error with a message for the user when the style cannot be read or may not be
   */
  async style(scope?: URI): Promise<{ xml: string; id: string }> {
    const s = await this.settings.scope(scope);
    const setting = s.settings.citationStyle;
    if (setting in BUNDLED_STYLES) {
      const xml = await this.bundledCsl(`styles/${BUNDLED_STYLES[setting as BundledStyle]}`);
      if (!xml) throw new Error(l10n.t('MLSys Papers: the bundled CSL style "{0}" is missing from the installation', setting));
      return { xml, id: `bundled:${setting}` };
    }
    const ws = this.workspace.service;
    const uri = this.workspace.settingUris(setting)[0] ?? URI.file(setting);
    if (s.fromWorkspace.includes('citationStyle') && !(await inWorkspaceReal(ws, uri))) {
      throw new Error(l10n.t('MLSys Papers: the CSL style "{0}" named by the workspace settings (mlsysPapers.citationStyle) is outside the workspace folders, so it is not read. Name it in your user settings to use it.', setting));
    }
    const stamp = await ws.stamp!(uri);
    if (stamp === undefined || this.userStyle?.uri !== uri.toString() || this.userStyle.stamp !== stamp) {
      const text = stamp === undefined ? undefined : await ws.readText(uri);
      if (text === undefined) throw new Error(l10n.t('MLSys Papers: cannot read the CSL style "{0}" (setting mlsysPapers.citationStyle)', setting));
      this.userStyle = { uri: uri.toString(), stamp: stamp!, xml: text };
    }
    return { xml: this.userStyle.xml, id: `user:${this.userStyle.uri}#${this.userStyle.stamp}` };
  }

  /** The bundled CSL locales, read once, as citeproc-js asks for them (by language tag; undefined for one not bundled). */
  async locales(): Promise<(lang: string) => string | undefined> {
    const locales = new Map<string, string | undefined>();
    for (const lang of BUNDLED_LOCALES) locales.set(lang, await this.bundledCsl(`locales/locales-${lang}.xml`));
    return (lang) => locales.get(lang);
  }

  /**
   * The entries' references as plain text, in order.
   *
   * @param scope - the document whose settings name the style; the window's when absent
   * @throws Error with a message for the user when the style cannot be read or may not be
   */
  async format(entries: readonly Entry[], scope?: URI): Promise<string[]> {
    const { xml, id: styleId } = await this.style(scope);
    // Only one entry at a time is kept: in a numeric style, a reference's number depends on the others.
    const single = entries.length === 1 ? entries[0]!.key : undefined;
    const id = `${this.version()}|${styleId}`;
    if (id !== this.formattedFor) { this.formatted.clear(); this.formattedFor = id; }
    if (single !== undefined && this.formatted.has(single)) {
      const ref = this.formatted.get(single);
      this.formatted.delete(single);
      this.formatted.set(single, ref);
      return ref === undefined ? [] : [ref];
    }
    const csl = await this.ctx.host.loadCsl();
    const refs = csl.formatBibliography(entries, xml, await this.locales(), 'text');
    if (single !== undefined && this.formattedFor === id) {
      this.formatted.set(single, refs[0]);
      if (this.formatted.size > FORMATTED_LIMIT) this.formatted.delete(this.formatted.keys().next().value!);
    }
    return refs;
  }
}

/**
 * Every id the extension contributes: commands, views, settings, context keys.
 * A unit test checks these against `package.json`. The commands the language service names in
 * its answers are defined in the core (which imports nothing outside it) and taken from there.
 */
import { SHOW_DETAILS_COMMAND } from './core/service/entryCards.js';
import { ServiceCommands } from './core/service/types.js';

const SERVICE_OPEN_NOTE = ServiceCommands.openNote;

export const EXTENSION_ID = 'mlsys-papers.mlsys-papers';

export const Commands = {
  search: 'mlsysPapers.search',
  insertCitation: 'mlsysPapers.insertCitation',
  copyCitationKey: 'mlsysPapers.copyCitationKey',
  copyBibtex: 'mlsysPapers.copyBibtex',
  openPaper: 'mlsysPapers.openPaper',
  openPdf: 'mlsysPapers.openPdf',
  openCode: 'mlsysPapers.openCode',
  markRead: 'mlsysPapers.markRead',
  markUnread: 'mlsysPapers.markUnread',
  filterByLevel: 'mlsysPapers.filterByLevel',
  showReadingListOnly: 'mlsysPapers.showReadingListOnly',
  showEverything: 'mlsysPapers.showEverything',
  entryActions: 'mlsysPapers.entryActions',
  addToBibliography: ServiceCommands.addToBibliography,
  replaceKey: ServiceCommands.replaceKey,
  copyEntryText: ServiceCommands.copyEntryText,
  copyFormattedReference: 'mlsysPapers.copyFormattedReference',
  insertFormattedReference: 'mlsysPapers.insertFormattedReference',
  insertBibliography: 'mlsysPapers.insertBibliography',
  exportEntries: 'mlsysPapers.exportEntries',
  exportCited: 'mlsysPapers.exportCited',
  showDetails: SHOW_DETAILS_COMMAND,
  showLog: 'mlsysPapers.showLog',
  showLibraries: 'mlsysPapers.showLibraries',
  openNote: SERVICE_OPEN_NOTE,
  showCitations: ServiceCommands.showCitations,
} as const;

export const Views = {
  container: 'mlsysPapers',
  topics: 'mlsysPapers.topics',
} as const;

export const Settings = {
  section: 'mlsysPapers',
  latexCommand: 'latexCommand',
  markdownStyle: 'markdownStyle',
  corpusFiles: 'corpusFiles',
  libraries: 'libraries',
  includeDocumentBibliography: 'includeDocumentBibliography',
  preferCorpusKeys: 'preferCorpusKeys',
  levels: 'levels',
  topicsShow: 'topicsShow',
  showChineseLabels: 'showChineseLabels',
  topicLabels: 'topicLabels',
  syncBibliography: 'syncBibliography',
  latexRoot: 'latexRoot',
  citationStyle: 'citationStyle',
  maxFileSizeMB: 'maxFileSizeMB',
  allowWritesOutsideWorkspace: 'allowWritesOutsideWorkspace',
  recordChecks: 'recordChecks',
  recordChecksInDocuments: 'recordChecksInDocuments',
  namedSystemHints: 'namedSystemHints',
  notesFolder: 'notesFolder',
  noteTemplate: 'noteTemplate',
} as const;

/** Context keys used in `when` clauses. */
export const ContextKeys = {
  levelFiltered: 'mlsysPapers.levelFiltered',
  /** The Topics view's `mlsysPapers.topicsShow`: `readingList` or `everything`. */
  topicsShow: 'mlsysPapers.topicsShow',
} as const;

/** `TreeItem.contextValue`s that drive the `view/item/context` menus. */
export const ContextValues = {
  entry: 'entry',
  entryRead: 'entry.read',
  topic: 'topic',
} as const;

/** The CSL styles we bundle: id → file name in `csl/styles/` (provenance in `csl/README.md`). */
export const BUNDLED_STYLES = {
  apa: 'apa.csl',
  ieee: 'ieee.csl',
  acm: 'acm-sig-proceedings.csl',
  'chicago-author-date': 'chicago-author-date.csl',
  'gb-t-7714-2015': 'china-national-standard-gb-t-7714-2015-numeric.csl',
} as const;
export type BundledStyle = keyof typeof BUNDLED_STYLES;

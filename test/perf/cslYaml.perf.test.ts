/**
 * CSL-YAML libraries at sizes the unit run leaves out, timed (see linear.ts): reading and loading
 * 10× the items takes at most 15× as long. The language server reads the same way a slice at a
 * time (test/unit/cslSliced.test.ts counts the slices); test/unit/cslLibrary.test.ts checks what
 * the items read as.
 */
import { expect, it } from 'vitest';
import { readCslYamlLibrary } from '../../src/core/bibliography/readCslYaml.js';
import { loadLibrary } from '../../src/core/library/loadLibrary.js';
import { expectLinear } from './linear.js';

/** `n` items under `references:`, shaped as Better BibTeX exports them (names, a date, a DOI). */
function cslYaml(n: number): string {
  const out = ['---', 'references:'];
  for (let i = 0; i < n; i++) {
    out.push(`- id: key${i}`, '  type: paper-conference', `  title: "Paged attention for ${i} serving: memory and scheduling"`,
      '  author:', `  - family: Kwon${i % 97}`, '    given: Woosuk', `  - family: Li${i % 89}`, '    given: Zhuohan',
      `  container-title: Proceedings of SOSP ${i % 7}`, '  issued:', '    date-parts:', `    - - ${2000 + (i % 25)}`, `  DOI: 10.1145/${i}.${i % 1000}`);
  }
  out.push('...', '');
  return out.join('\n');
}

const small = cslYaml(500);
const large = cslYaml(5000);

it('readCslYamlLibrary: 500 vs 5,000 items grows linearly', () => {
  expect(readCslYamlLibrary(large).items).toHaveLength(5000);
  expectLinear('readCslYamlLibrary (500 vs 5,000 items)', () => readCslYamlLibrary(small), () => readCslYamlLibrary(large));
});

it('loadLibrary (read, convert, index): 500 vs 5,000 CSL-YAML items grows linearly', () => {
  const ref = { uri: 'file:///lib/refs.yaml', name: 'refs.yaml' };
  expect(loadLibrary(large, 'csl-yaml', ref).entries).toHaveLength(5000);
  expectLinear('loadLibrary csl-yaml (500 vs 5,000 items)', () => loadLibrary(small, 'csl-yaml', ref), () => loadLibrary(large, 'csl-yaml', ref));
});

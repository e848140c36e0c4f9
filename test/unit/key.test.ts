import { describe, expect, it } from 'vitest';
import { followsKeyScheme, makeCitationKey } from '../../src/core/cite/key.js';
import { realCorpus } from './helpers.js';

describe('makeCitationKey (scheme in corpus/README.md)', () => {
  it.each([
    [[{ given: 'Woosuk', family: 'Kwon' }], 2023, 'Efficient Memory Management for Large Language Model Serving with PagedAttention', 'kwon2023efficient'],
    [[{ given: 'Mohammad', family: 'Shoeybi' }], 2019, 'Megatron-LM: Training Multi-Billion Parameter Language Models', 'shoeybi2019megatron'],
    [[{ given: 'Zixuan', family: 'Zhou' }], 2024, 'A Survey on Efficient Inference for Large Language Models', 'zhou2024survey'],
    [[{ given: 'Tal', family: 'Ben-Nun' }], 2019, 'Demystifying Parallel and Distributed Deep Learning', 'bennun2019demystifying'],
    [[{ given: 'José', family: 'Müller-Lamé' }], 2020, 'Über alles', 'mullerlame2020uber'],
    [[{ literal: 'PKU-DAIR team' }], undefined, 'Hetu', 'pkudairndhetu'],
    [[{ given: 'Tri', family: 'Dao' }], 2024, 'FlashAttention-2: Faster Attention', 'dao2024flashattention'],
  ])('%j %s %s → %s', (authors, year, title, key) => {
    expect(makeCitationKey(authors, year, title)).toBe(key);
  });

  it('uses the venue (the site) when no author is known', () => {
    expect(makeCitationKey([], 2024, 'Six things about sequence parallelism', 'Zhihu')).toBe('zhihu2024six');
  });

  it('every bundled key follows the scheme and is the one computed from its entry (or that plus a suffix)', () => {
    for (const e of realCorpus().entries) {
      expect(followsKeyScheme(e.key), e.key).toBe(true);
      const base = makeCitationKey(e.authors, e.year, e.title_en ?? e.title, e.venue);
      // The base key, or it plus the collision suffix `a` … `z`, `aa` … (corpus/README.md).
      expect(e.key.startsWith(base) && /^[a-z]{0,2}$/.test(e.key.slice(base.length)), `${e.key} (computed: ${base})`).toBe(true);
    }
  });

  it('bundled keys are unique ignoring case', () => {
    const keys = realCorpus().entries.map((e) => e.key.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });
});

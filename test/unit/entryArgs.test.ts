import { describe, expect, it } from 'vitest';
import { entriesFromArgs } from '../../src/features/entryArgs.js';
import { realCorpus } from './helpers.js';

describe('command arguments to entries', () => {
  const c = realCorpus();
  const vllm = { nodeType: 'entry', entry: c.entry('kwon2023efficient')!, topicId: 'serving.memory' };
  const orca = { nodeType: 'entry', entry: c.entry('yu2022orca')!, topicId: 'serving.batching' };
  const topic = { nodeType: 'topic', id: 'clusters' };
  const keys = (es: { key: string }[]) => es.map((e) => e.key);

  it('takes a key, an entry, a node, or nothing', () => {
    expect(keys(entriesFromArgs(c, 'kwon2023efficient'))).toEqual(['kwon2023efficient']);
    expect(keys(entriesFromArgs(c, vllm.entry))).toEqual(['kwon2023efficient']);
    expect(keys(entriesFromArgs(c, vllm))).toEqual(['kwon2023efficient']);
    expect(entriesFromArgs(c, undefined)).toEqual([]);
  });

  it('uses the tree selection when it holds the clicked node, else the clicked node alone', () => {
    expect(keys(entriesFromArgs(c, vllm, [orca, vllm]))).toEqual(['yu2022orca', 'kwon2023efficient']);
    // Right-click on a row outside the selection: the row, not the selection.
    expect(keys(entriesFromArgs(c, vllm, [topic]))).toEqual(['kwon2023efficient']);
    expect(keys(entriesFromArgs(c, vllm, [orca]))).toEqual(['kwon2023efficient']);
  });
});

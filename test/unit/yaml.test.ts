import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/core/yaml.js';

describe('parseYaml', () => {
  it('reports a duplicate key at the repeated key, in nested mappings too, and reads nothing', () => {
    const { problems, value } = parseYaml('a: 1\nb:\n  c: 2\n  c: 3\na: 4\n');
    expect(problems.every((p) => p.message === 'Map keys must be unique' && p.severity === 'error')).toBe(true);
    expect(problems.map((p) => p.offset).sort((x, y) => x - y)).toEqual([17, 22]);
    expect(value).toBeUndefined();
    expect(parseYaml('a: 1\na: 2\n', { uniqueKeys: false }).value).toEqual({ a: 2 });
  });
  it('refuses deep nesting, and turns an undefined alias into a problem', () => {
    expect(parseYaml(`a: ${'['.repeat(850)}`).problems[0]?.message).toMatch(/nested more than 100 levels/);
    expect(parseYaml('- key: *nope\n').problems[0]?.message).toBe('alias *nope refers to no anchor');
  });
});

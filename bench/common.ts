/** What the benches share: the queries a user types, and how timings are summarised. */

/** Real queries, typed one keystroke at a time by the search bench and sent whole by the server bench. */
export const QUERIES = [
  'paged attention', 'zero offload', 'pipeline parallelism', 'megatron', 'ring attention', 'speculative decoding',
  'flashattention 2', 'author:stoica', 'mixture of experts training', 'quantization llm', '深度学习', 'kwon2023',
];

/** The `p`-th percentile (0–100) of timings sorted ascending (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * The logger the core and its hosts share: VS Code's `LogOutputChannel` has this shape, and the
 * CLI writes the same calls to stderr.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

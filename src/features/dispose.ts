/**
 * One base for everything in the VS Code layer that owns disposables, after the `Disposable` of
 * VS Code's Markdown extension (`extensions/markdown-language-features/src/util/dispose.ts`).
 */
import type * as vscode from 'vscode';

/**
 * Disposes each of `items`, in order. One that throws does not stop the others.
 *
 * @throws the error of the one that threw, or an `AggregateError` when several did
 */
export function disposeAll(items: Iterable<vscode.Disposable>): void {
  const errors: unknown[] = [];
  for (const d of items) {
    try {
      d.dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length) throw new AggregateError(errors, 'MLSys Papers: several disposables failed to dispose');
}

/** Owns disposables registered with {@link _register}; disposing it disposes them, once. */
export abstract class Disposable implements vscode.Disposable {
  private disposed = false;
  private readonly owned: vscode.Disposable[] = [];

  /** Whether {@link dispose} ran. */
  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Takes ownership of `value`: it is disposed with this object, or at once if this is disposed already.
   *
   * @returns `value`, for `private readonly x = this._register(new X())`
   */
  protected _register<T extends vscode.Disposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.owned.push(value);
    return value;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.owned.splice(0).reverse());
  }
}

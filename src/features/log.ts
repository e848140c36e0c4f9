/**
 * The extension's log: the "MLSys Papers" output channel (a `LogOutputChannel`, so the user picks
 * its level and VS Code stamps each line). What a user can send us when something goes wrong.
 */
import * as vscode from 'vscode';
import type { Logger } from '../core/log.js';
import { Commands } from '../ids.js';

/** The extension's logger. */
export type Log = Logger & vscode.Disposable;

/** Creates the "MLSys Papers" log output channel. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('MLSys Papers', { log: true });
}

/** *MLSys Papers: Show Log*: reveals the log channel (what to attach to a bug report). */
export function registerShowLog(log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.showLog, () => log.show());
}

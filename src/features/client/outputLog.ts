/**
 * The extension's log: the "MLSys Papers" output channel (a `LogOutputChannel`, so the user picks
 * its level and VS Code stamps each line). What a user can send us when something goes wrong.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../core/config/logger.js';
import { Commands } from '../../ids.js';
import type { Ctx } from './ctx.js';

/** The extension's logger. */
export type Log = Logger & vscode.Disposable;

/** *MLSys Papers: Show Log*: reveals the log channel (what to attach to a bug report). */
export function registerShowLog(ctx: Ctx): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.showLog, () => ctx.log.show());
}

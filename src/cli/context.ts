import type { Command } from 'commander';
import type { Io } from './io.js';

/** Given to every command's register(): where to write, and how to report the exit code. */
export interface CliContext {
  io: Io;
  setExit(code: number): void;
  /** Aborted on SIGINT/SIGTERM (long-running commands watch it). */
  signal: AbortSignal;
  /**
   * Runs another command of this CLI in-process, with this signal (the demo's steps): handed in
   * by program.ts, so a command need not import main.ts, which imports every command.
   */
  run(argv: string[], io: Io): Promise<number>;
}

export type Register = (program: Command, ctx: CliContext) => void;

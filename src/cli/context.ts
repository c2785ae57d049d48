import type { Command } from 'commander';
import type { Io } from './io.js';

/** Given to every command's register(): where to write, and how to report the exit code. */
export interface CliContext {
  io: Io;
  setExit(code: number): void;
  /** Aborted on SIGINT/SIGTERM (long-running commands watch it). */
  signal: AbortSignal;
}

export type Register = (program: Command, ctx: CliContext) => void;

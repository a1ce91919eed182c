// The bot's log, on stderr: stdout carries protocol messages only.  Import it where you need
// it, in strategy.ts too: `import { log } from "./log";`.  `console` is left undeclared on
// purpose (console.log writes to stdout), so this is the way to print a debug line.

/** The bot's name: its hello, and the prefix of its log lines. */
export const NAME = "ts_baseline";

/** One line to stderr, prefixed with the bot's name. */
export function log(text: string): void {
  process.stderr.write(`${NAME}: ${text}\n`);
}

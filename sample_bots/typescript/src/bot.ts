// A Modern Art bot for the referee's protocol version 1, in TypeScript run by Node.js.
//
// This file speaks the protocol: it reads one JSON message per line from stdin, answers
// hello and every request on stdout (one line each), and logs to stderr.  The strategy is
// in strategy.ts.  Build with `tsc`, run with `node --enable-source-maps out/bot.js` (then a
// stack trace gives the lines of the .ts files).

import { Action, checkNewGame, checkRequest, fallback, GameEvent, NewGame, Request } from "./protocol";
import { log, NAME } from "./log";
import { Game } from "./strategy";

/** One protocol line.  Writes to a pipe are synchronous on Linux: nothing waits in a buffer. */
function send(message: object): void {
  process.stdout.write(JSON.stringify(message) + "\n");
}

/** The strategy's answer, or the decision's default if the request cannot be read (a field
 * missing) or the strategy fails: a bug in the strategy then costs a move, not a fault. */
function answer(game: Game | null, request: Request): Action {
  const asked = `request ${request.id} (${request.decision})`;
  try {
    if (game === null) throw new Error("no game: its new_game was missing or unreadable");
    checkRequest(request);
  } catch (error) {
    log(`${asked}: ${(error as Error).message}; falling back to the default`);
    return fallback(request.decision, request.legal ?? {});
  }
  try {
    return game.decide(request.decision, request.view, request.legal);
  } catch (error) {
    log(`${asked}: ${String(error)}${where(error)}; falling back to the default`);
    return fallback(request.decision, request.legal ?? {});
  }
}

/** " at strategy.ts:33 in Game.decide": the first frame of the error's stack in this bot's
 * own files (not Node's), the line to look at; the .ts file's line when Node runs with
 * --enable-source-maps (bot.toml's command), else the compiled .js file's.  "" if none. */
function where(error: unknown): string {
  const kit = __dirname.replace(/[\\/]out$/, "");
  const stack = error instanceof Error && error.stack ? error.stack : "";
  for (const line of stack.split("\n")) {
    const frame = /^\s*at (?:(.*?) \()?(.*?):(\d+):\d+\)?$/.exec(line);
    if (frame && frame[2].startsWith(kit) && !frame[2].includes("node_modules")) {
      const file = frame[2].split(/[\\/]/).pop();
      return ` at ${file}:${frame[3]}${frame[1] ? ` in ${frame[1]}` : ""}`;
    }
  }
  return "";
}

let game: Game | null = null;

/** Acts on one line; false once the session is over (goodbye). */
function handle(line: string): boolean {
  if (line.trim() === "") return true;
  let msg: { type?: string; [field: string]: unknown };
  try {
    msg = JSON.parse(line);
  } catch (error) {
    log(`not JSON, ignored: ${line.slice(0, 80)}`);
    return true;
  }
  switch (msg.type) {
    case "hello":
      send({ type: "hello", name: NAME, protocol: 1 });
      break;
    case "new_game":
      game = null; // until this one is read: its requests get the default answers
      try {
        checkNewGame(msg as unknown as NewGame);
        game = new Game(msg as unknown as NewGame);
      } catch (error) {
        log(`cannot read new_game (${String(error)}${where(error)}); answering the defaults`);
      }
      break;
    case "event":
      try {
        if (!("event" in msg)) throw new Error('no field "event"');
        game?.seenEvent(msg.event as GameEvent);
      } catch (error) {
        // A field missing is said as the strategy says it ('round_ended: no field
        // "counts"'); a bug, as answer() says one: the error, where it was thrown.
        const kind = (msg.event as { type?: unknown } | undefined)?.type;
        const said = (error as Error).message ?? String(error);
        log(typeof kind === "string" && !said.startsWith(`${kind}:`)
          ? `cannot read an event (${kind}: ${String(error)}${where(error)}), ignored`
          : `cannot read an event (${said}), ignored`);
      }
      break;
    case "request": {
      const request = msg as unknown as Request;
      send({ id: request.id, ...answer(game, request) });
      break;
    }
    case "warning":
      log(`warning for request ${msg.id}: ${msg.fault}: ${msg.reason}`);
      break;
    case "game_end":
      log(`game over, ranks ${JSON.stringify(msg.ranks)}`);
      break;
    case "goodbye":
      return false;
  }
  return true;
}

// Read stdin in chunks and cut them into lines; a line may span chunks.
let pending = "";
process.stdout.on("error", () => process.exit(0)); // the referee has gone
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let newline: number;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (!handle(line)) process.exit(0);
  }
});
process.stdin.on("end", () => {
  handle(pending);
  process.exit(0);
});

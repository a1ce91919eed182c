//! sample_rust: a Modern Art bot in Rust (standard library only), speaking protocol v1
//! (../../protocol/README.md).
//!
//! It reads one JSON object per line from stdin and answers every `request` with one JSON line
//! on stdout, flushed at once. Nothing else goes to stdout: the log goes to stderr. It plays
//! any number of games in one process and exits on `goodbye` or at end of input. The strategy
//! is in strategy.rs; this file is only the input loop, and the guard that keeps a panic in
//! the strategy from ending the bot (and logs one in a thread the strategy starts).

mod json;
mod protocol;
mod strategy;

use std::cell::{Cell, RefCell};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::thread;

use json::Json;
use strategy::Game;

const BOT_NAME: &str = "sample_rust";

/// A line of log to stderr, prefixed with the bot's name. Unlike `eprintln!`, it does not
/// panic when stderr is closed.
macro_rules! log {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stderr(), "{}: {}", BOT_NAME, format_args!($($arg)*));
    }};
}

/// One protocol line to stdout, flushed: an unflushed reply is a reply that never arrived.
/// An error means the referee has gone.
fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

thread_local! {
    /// Whether the strategy runs under `guarded` now: its panic is then caught and logged by
    /// the bot in one line, not printed by Rust's default hook.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// The last guarded panic, as the panic hook saw it: its message and place.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that, for a panic under `guarded`, keeps its message and the place
/// in the code it came from for the one line the bot logs (Rust's default hook would print
/// `thread 'main' panicked at ...` and, with RUST_BACKTRACE set, a backtrace, for every caught
/// panic). A panic in a thread the strategy started is logged in one line too, with the
/// thread's name if it has one: that thread ends, and its `join()` returns an `Err` whose
/// `unwrap()` says only `Any { .. }`, so this line is where its message is read. Any other panic (in the main
/// thread, outside `guarded`) is printed by the default hook, as ever, and ends the bot.
fn install_panic_hook() {
    let default_hook = panic::take_hook();
    let main_thread = thread::current().id();
    panic::set_hook(Box::new(move |info| {
        let guarded = GUARDED.try_with(Cell::get).unwrap_or(false);
        let current = thread::current();
        if !guarded && current.id() == main_thread {
            return default_hook(info);
        }
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(not a message)")
            .split_whitespace() // one line (an assert_eq!'s message has three)
            .collect::<Vec<_>>()
            .join(" ");
        let place = info.location().map_or(String::new(), |at| {
            format!(" at {}:{}:{}", at.file(), at.line(), at.column())
        });
        if guarded {
            PANIC.with(|last| *last.borrow_mut() = Some(format!("panic: {message}{place}")));
            return;
        }
        let thread = match current.name() {
            Some(name) => format!("thread '{name}'"),
            None => "a thread".to_string(),
        };
        log!("panic in {thread}: {message}{place}; the thread ended");
    }));
}

/// Runs a call into the strategy, a panic in it (an index past the end, an `unwrap()` of
/// `None`) being an error: `panic: index out of bounds: the len is 0 but the index is 0 at
/// src/strategy.rs:180:36`. The caller then logs it and plays on, as for an error the strategy
/// returns; the `Game` keeps what the strategy had changed before it panicked.
fn guarded<T>(strategy: impl FnOnce() -> T) -> Result<T, String> {
    GUARDED.with(|guarded| guarded.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(strategy));
    GUARDED.with(|guarded| guarded.set(false));
    result.map_err(|_| {
        PANIC
            .with(|last| last.borrow_mut().take())
            .unwrap_or_else(|| "panic".to_string())
    })
}

fn answer(msg: &Json, game: Option<&Game>) -> String {
    let id = msg.get("id").cloned().unwrap_or(Json::Null);
    let decision = msg.get("decision").and_then(Json::as_str).unwrap_or("");
    let reply = match game {
        None => Err("a request before any new_game".to_string()),
        Some(game) => protocol::read_request(msg)
            .and_then(|request| guarded(|| game.decide(&request)).and_then(|reply| reply)),
    };
    let reply = reply.unwrap_or_else(|problem| {
        // Never let a bug in the strategy forfeit the move.
        log!(
            "request {} ({decision}): {problem}; falling back to the default",
            id.to_text()
        );
        protocol::fallback(decision, msg.get("legal"))
    });
    protocol::reply_line(&id, &reply)
}

fn main() {
    install_panic_hook();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut game: Option<Game> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break, // end of input
            Ok(_) => {}
            Err(e) => {
                log!("cannot read stdin: {e}");
                break;
            }
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if text.is_empty() {
            continue;
        }
        let msg = match json::parse(text) {
            Ok(msg @ Json::Object(_)) => msg,
            Ok(_) => {
                log!("not a JSON object, ignored");
                continue;
            }
            Err(problem) => {
                log!("not JSON ({problem}), ignored");
                continue;
            }
        };
        let sent = match msg.get("type").and_then(Json::as_str).unwrap_or("") {
            "hello" => send(&mut out, &protocol::hello_line(BOT_NAME)),
            "new_game" => {
                let new_game = protocol::read_new_game(&msg).and_then(|new_game| {
                    log!("game {}, seat {}", new_game.game_id, new_game.seat);
                    guarded(|| Game::new(&new_game))
                });
                game = match new_game {
                    Ok(game) => Some(game),
                    Err(problem) => {
                        // Requests of this game get the default answers.
                        log!("cannot read new_game ({problem}); answering the defaults");
                        None
                    }
                };
                Ok(())
            }
            "event" => {
                if let Some(game) = game.as_mut() {
                    let seen = match msg.get("event") {
                        Some(event) => guarded(|| game.seen_event(event)).unwrap_or_else(|panic| {
                            let kind = event.get("type").and_then(Json::as_str).unwrap_or("?");
                            Err(format!("{kind}: {panic}"))
                        }),
                        None => Err("no field \"event\"".to_string()),
                    };
                    if let Err(problem) = seen {
                        log!("cannot read an event ({problem}), ignored");
                    }
                }
                Ok(())
            }
            "request" => send(&mut out, &answer(&msg, game.as_ref())),
            "warning" => {
                let field = |key| msg.get(key).map_or("?".to_string(), Json::to_text);
                log!(
                    "warning for request {}: {}: {}",
                    field("id"),
                    field("fault"),
                    field("reason")
                );
                Ok(())
            }
            "game_end" => {
                log!(
                    "game over, ranks {}",
                    msg.get("ranks").map_or("?".to_string(), Json::to_text)
                );
                game = None;
                Ok(())
            }
            "goodbye" => break,
            _ => Ok(()), // a message type this bot does not know, ignored
        };
        if sent.is_err() {
            break; // stdout is closed: the referee has gone
        }
    }
}

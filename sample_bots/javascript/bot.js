#!/usr/bin/env node
// heuristic_js: a simple, sensible Modern Art bot for Node.js (protocol v1, no npm packages).
//
// It values a painting by what it would sell for if the round ended now, judging the round
// by how many cards of each artist have been played (and, a little, by the cards it holds),
// and then bids, prices and buys at a fraction of that value. Every answer is taken from the
// request's `legal` field, so it never makes an illegal move.
//
// Run:  node bot.js [--name NAME]
// Protocol: ../../protocol/README.md. Everything on stdout is a protocol line; logging goes
// to stderr.

"use strict";

const readline = require("readline");

const PROTOCOL = 1;
const TILES = [30, 20, 10]; // value tiles for the top three artists of a round (R5.3)

// How much of a painting's estimated value the bot is willing to pay or ask.
const BID_FRACTION = 0.55; // in someone else's auction (the money goes to a rival)
const OWN_BID_FRACTION = 0.45; // in its own auction (it pays the bank; not bidding earns money)
const HIDDEN_FRACTION = 0.45; // a single sealed bid
const ONCE_AROUND_FRACTION = 0.4; // opening bid in a once-around auction
const PRICE_FRACTION = 0.5; // fixed price it names (it pays this itself if nobody buys)
const BUY_FRACTION = 0.55; // buys at a fixed price up to this much of the value

function argValue(flag, fallback) {
  const i = process.argv.indexOf(flag);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const NAME = String(argValue("--name", "heuristic_js")).slice(0, 64);

function log(...parts) {
  // stderr only, each line "NAME: ..." as in every kit: stdout carries protocol lines only.
  console.error(`${NAME}:`, ...parts);
}

function send(message) {
  // One line per message. On Linux, writes to a pipe are synchronous, so nothing is held back.
  process.stdout.write(JSON.stringify(message) + "\n");
}

// ---- game knowledge -------------------------------------------------------------------

let game = null; // {seat, players, cards: [{artist, type}], artists: n}

// A field the protocol always sends that is missing is an error naming it (`no field "min"`),
// logged to stderr, never read as 0 or undefined.
class MissingField extends Error {}

function required(obj, key) {
  if (obj === null || typeof obj !== "object" || !(key in obj)) throw new MissingField(`no field "${key}"`);
  return obj[key];
}

// Which fields `legal` has for each decision (protocol section 4): each is required.
const LEGAL_FIELDS = {
  play: ["cards", "can_pass"],
  offer: ["cards", "can_pass"],
  bid: ["min", "max", "can_pass"],
  hidden_bid: ["min", "max", "can_pass"],
  price: ["min", "max", "can_pass"],
  buy: ["price", "can_pass"],
  mystery: ["can_pass"],
};
const VIEW_FIELDS = ["seat", "round", "money", "hand", "hand_sizes", "mystery_size", "deck_size",
  "tiles", "played", "bought", "unsold", "auction", "double", "turn"];

function newGame(msg) {
  game = null; // until this one is read: its requests get the default answers
  const edition = required(msg, "edition");
  const cards = [];
  for (const c of required(edition, "cards")) {
    cards[required(c, "id")] = { artist: required(c, "artist"), type: required(c, "type") };
  }
  game = {
    id: required(msg, "game_id"),
    seat: required(msg, "seat"),
    players: required(msg, "players"),
    cards,
    artists: required(edition, "artists").length,
  };
  log(`new game ${msg.game_id}: seat ${msg.seat} of ${msg.players}`);
}

// An event of this game (protocol section 5), as sent. This bot tracks none (every request
// carries a full view); track here what yours needs. An error here is logged with its place
// and the event ignored: the bot plays on.
function seenEvent(event) {}

function artistOf(card) {
  const c = game && game.cards[card];
  return c ? c.artist : 0;
}

function typeOf(card) {
  const c = game && game.cards[card];
  return c ? c.type : "open";
}

function artistCount(view) {
  return game && game.artists ? game.artists : view.played.length;
}

// What one painting of each artist would sell for if the round ended now, with `extra`
// more cards of the given artist played. The ranking leans a little towards artists whose
// cards we hold (we can play them), and the estimate is discounted early in the round, when
// the ranking can still change a lot.
function paintingValues(view, extraArtist = -1) {
  const n = artistCount(view);
  const hand = new Array(n).fill(0);
  for (const card of view.hand || []) hand[artistOf(card)] += 1;
  const played = view.played.slice();
  if (extraArtist >= 0) played[extraArtist] += 1;

  const order = [];
  for (let a = 0; a < n; a++) if (played[a] > 0 || hand[a] > 0) order.push(a);
  const strength = (a) => played[a] + 0.4 * hand[a];
  // Stronger first; ties go to the artist further left (R5.3).
  order.sort((a, b) => strength(b) - strength(a) || a - b);

  const most = Math.max(0, ...played);
  const confidence = Math.min(1, 0.55 + 0.12 * most);
  const values = new Array(n).fill(0);
  order.slice(0, 3).forEach((a, rank) => {
    let earlier = 0;
    for (const row of view.tiles || []) earlier += row[a] || 0;
    values[a] = Math.round((earlier + TILES[rank]) * confidence);
  });
  return values;
}

function lotValue(view) {
  const auction = view.auction;
  if (!auction) return 0;
  const values = paintingValues(view);
  let total = 0;
  for (const card of auction.cards) total += values[artistOf(card)];
  return total;
}

function clamp(x, lo, hi) {
  return Math.max(lo, Math.min(hi, Math.floor(x)));
}

// ---- decisions ------------------------------------------------------------------------

const TYPE_BONUS = { open: 3, hidden: 2, "once-around": 1, "fixed-price": 0, double: 2 };

function choosePlay(view, legal) {
  let best = legal.cards[0];
  let bestScore = -Infinity;
  const handByArtist = {};
  for (const card of view.hand || []) {
    const a = artistOf(card);
    handByArtist[a] = (handByArtist[a] || 0) + 1;
  }
  for (const card of legal.cards) {
    const a = artistOf(card);
    let score;
    if (view.played[a] >= 4) {
      // The 5th card ends the round unsold: only worth it if nothing else is left.
      score = -1000 + paintingValues(view)[a];
    } else {
      // Auction what will sell well; keep several of an artist to push it later.
      score = paintingValues(view, a)[a] + 2 * (handByArtist[a] || 0) + TYPE_BONUS[typeOf(card)];
      // A double is worth more if we hold a second card to add to it ourselves.
      if (typeOf(card) === "double" && (handByArtist[a] || 0) < 2) score -= 6;
    }
    if (score > bestScore) {
      bestScore = score;
      best = card;
    }
  }
  return { action: "play", card: best };
}

function chooseOffer(view, legal) {
  const cards = legal.cards;
  const double = view.double;
  if (!cards.length || !double) return { action: "pass" };
  const a = artistOf(double.card);
  if (view.played[a] >= 4) return { action: "pass" }; // a 5th card would end the round unsold
  // Adding a card makes us the auctioneer of both: we collect the proceeds. Prefer the
  // auction types that tend to fetch a good price.
  const rank = { open: 0, hidden: 1, "once-around": 2, "fixed-price": 3 };
  const sorted = cards.slice().sort((x, y) => (rank[typeOf(x)] ?? 9) - (rank[typeOf(y)] ?? 9) || x - y);
  return { action: "offer", card: sorted[0] };
}

function chooseBid(view, legal) {
  const value = lotValue(view);
  const auction = view.auction || {};
  const mine = auction.auctioneer === view.seat;
  const limit = Math.floor(value * (mine ? OWN_BID_FRACTION : BID_FRACTION));
  if (legal.min > legal.max || legal.min > limit) return { action: "pass" };
  if (auction.type === "once-around" && !mine) {
    // Only one chance: open with a solid bid rather than the minimum.
    return { action: "bid", amount: clamp(Math.max(legal.min, value * ONCE_AROUND_FRACTION), legal.min, Math.min(limit, legal.max)) };
  }
  return { action: "bid", amount: legal.min };
}

function chooseHiddenBid(view, legal) {
  const value = lotValue(view);
  return { action: "bid", amount: clamp(value * HIDDEN_FRACTION, legal.min, legal.max) };
}

function choosePrice(view, legal) {
  const value = lotValue(view);
  return { action: "price", amount: clamp(value * PRICE_FRACTION, legal.min, legal.max) };
}

function chooseBuy(view, legal) {
  const value = lotValue(view);
  const price = legal.price;
  const money = view.money ? view.money[view.seat] : null;
  if (price <= value * BUY_FRACTION && (money === null || price <= money)) return { action: "buy" };
  return { action: "pass" };
}

function chooseMystery(view) {
  // Turn the mystery card when the round's leading artist is one we bought this round:
  // it brings the round's end (and our sale) closer.
  const bought = (view.bought && view.bought[view.seat]) || [];
  if (!bought.length) return { action: "pass" };
  let leader = 0;
  for (let a = 1; a < view.played.length; a++) if (view.played[a] > view.played[leader]) leader = a;
  return bought.some((card) => artistOf(card) === leader) ? { action: "reveal" } : { action: "pass" };
}

// The referee's default (protocol section 8), from what `legal` has.
function safeDefault(decision, legal) {
  const cards = legal && Array.isArray(legal.cards) ? legal.cards : [];
  if (decision === "play") return cards.length ? { action: "play", card: cards[0] } : { action: "pass" };
  if (decision === "hidden_bid") return { action: "bid", amount: 0 };
  if (decision === "price") return { action: "price", amount: (legal && legal.min) ?? 0 };
  return { action: "pass" };
}

// An error in one line: a missing field by its name (`no field "edition"`), any other error
// with the place in this file it came from (`TypeError: ... at bot.js:212 in choosePrice`).
function problem(err) {
  return err instanceof MissingField ? err.message : `${String(err)}${where(err)}`;
}

// " at bot.js:212 in choosePrice": the first frame of the error's stack in this file (not in
// Node's own code), the line to look at; "" when there is none.
function where(err) {
  for (const line of String((err && err.stack) || "").split("\n")) {
    const frame = /^\s*at (?:(.*?) \()?(.*?):(\d+):\d+\)?$/.exec(line);
    if (frame && frame[2] === __filename) {
      return ` at ${require("path").basename(frame[2])}:${frame[3]}${frame[1] ? ` in ${frame[1]}` : ""}`;
    }
  }
  return "";
}

function decide(msg) {
  const legal = msg.legal;
  let view;
  try {
    if (game === null) throw new Error("no game read before this request");
    view = required(msg, "view");
    for (const key of VIEW_FIELDS) required(view, key);
    try {
      for (const key of LEGAL_FIELDS[msg.decision] || []) required(legal, key);
    } catch (err) {
      throw new Error(`legal: ${err.message}`);
    }
  } catch (err) {
    // A field missing: the referee's default, never a guess from undefined.
    log(`request ${msg.id} (${msg.decision}): ${err.message}; falling back to the default`);
    return safeDefault(msg.decision, legal);
  }
  try {
    switch (msg.decision) {
      case "play": return choosePlay(view, legal);
      case "offer": return chooseOffer(view, legal);
      case "bid": return chooseBid(view, legal);
      case "hidden_bid": return chooseHiddenBid(view, legal);
      case "price": return choosePrice(view, legal);
      case "buy": return chooseBuy(view, legal);
      case "mystery": return chooseMystery(view);
      default:
        log(`unknown decision ${msg.decision}; passing`);
        return { action: "pass" };
    }
  } catch (err) {
    // Never forfeit a move to a bug in the strategy: fall back to the referee's default,
    // saying where in this file it came from.
    log(`request ${msg.id} (${msg.decision}): ${problem(err)}; falling back to the default`);
    return safeDefault(msg.decision, legal);
  }
}

// ---- the protocol loop ----------------------------------------------------------------

process.stdout.on("error", () => process.exit(0)); // the referee went away (EPIPE)

const rl = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });

let finished = false; // after goodbye, ignore whatever readline still has buffered

rl.on("line", (line) => {
  if (finished || !line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    log(`ignoring a line that is not JSON: ${line.slice(0, 80)}`);
    return;
  }
  if (!msg || typeof msg !== "object") return;
  switch (msg.type) {
    case "hello":
      send({ type: "hello", name: NAME, protocol: PROTOCOL });
      break;
    case "new_game":
      try {
        newGame(msg);
      } catch (err) {
        log(`cannot read new_game (${problem(err)}); answering the defaults`);
      }
      break;
    case "event":
      if (game === null) break; // no game read: nothing to track
      try {
        seenEvent(required(msg, "event"));
      } catch (err) {
        // A bug in the tracking costs that event, not a crash that retires the bot.
        const type = msg.event !== null && typeof msg.event === "object" ? msg.event.type : undefined;
        log(`cannot read an event (${typeof type === "string" ? `${type}: ` : ""}${problem(err)}), ignored`);
      }
      break;
    case "request":
      send({ id: msg.id, ...decide(msg) });
      break;
    case "warning":
      log(`warning for request ${msg.id}: ${msg.fault}: ${msg.reason} (applied ${JSON.stringify(msg.applied)})`);
      break;
    case "game_end":
      log(`game ${msg.game_id} over: money ${JSON.stringify(msg.money)}, ranks ${JSON.stringify(msg.ranks)}`);
      break;
    case "goodbye":
      finished = true;
      rl.close();
      break;
    default:
      break; // unknown message types need no answer
  }
});

// Goodbye or end of input: stop reading and let Node exit once stdout is drained.
rl.on("close", () => {
  process.stdin.destroy();
});

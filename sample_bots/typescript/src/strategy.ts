// The strategy: a port of sample_bots/python/baseline_bot.py.  It values each artist from
// the table (cards played this round, its own hand, the cards still unseen, the tiles so
// far), bids up to that value less a margin, prices fixed-price lots just under it, adds
// second cards to doubles, and plays the card whose auction should pay it most.  Change
// decide() (and what it calls) to write your own.

import { Action, Decision, GameEvent, Legal, NewGame, View } from "./protocol";

const TILES = [30, 20, 10]; // the value tiles of the 1st, 2nd and 3rd artist
const MARGIN = 0.8; // bid at most this share of a painting's estimated value
/** Auction types in the order preferred for a double's second card: open auctions first. */
const TYPE_RANK: Record<string, number> = {
  open: 0, hidden: 1, "once-around": 2, "fixed-price": 3, double: 4,
};

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** What the bot keeps for one game, from new_game and the events. */
export class Game {
  readonly seat: number;
  readonly players: number;
  readonly artists: number; // how many artists this edition has (never assume five)
  private readonly artistOf = new Map<number, number>(); // card id -> artist index
  private readonly typeOf = new Map<number, string>(); // card id -> auction type
  private readonly perArtist: number[]; // cards of each artist in the edition
  private readonly gone: number[]; // cards of each artist played in earlier rounds

  constructor(msg: NewGame) {
    this.seat = msg.seat;
    this.players = msg.players;
    this.artists = msg.edition.artists.length;
    this.perArtist = new Array<number>(this.artists).fill(0);
    this.gone = new Array<number>(this.artists).fill(0);
    for (const card of msg.edition.cards) {
      this.artistOf.set(card.id, card.artist);
      this.typeOf.set(card.id, card.type);
      this.perArtist[card.artist] += 1;
    }
  }

  seenEvent(event: GameEvent): void {
    if (event.type === "round_ended") {
      if (!Array.isArray(event.counts)) throw new Error('round_ended: no field "counts"');
      event.counts.forEach((n: number, a: number) => {
        if (a < this.artists) this.gone[a] += n;
      });
    }
  }

  private artist(card: number): number {
    const a = this.artistOf.get(card);
    if (a === undefined) throw new Error(`card ${card} is not in the edition`);
    return a;
  }

  /** Estimated sale value of one painting of each artist at the end of this round. */
  values(view: View): number[] {
    const n = this.artists;
    const played = view.played;
    const mine = new Array<number>(n).fill(0);
    for (const c of view.hand) mine[this.artist(c)] += 1;
    const othersCards = sum(view.hand_sizes) - view.hand.length + view.mystery_size;
    const unseen = played.map((p, a) => Math.max(0, this.perArtist[a] - this.gone[a] - p - mine[a]));
    const totalUnseen = sum(unseen) || 1;
    const progress = played.length > 0 ? Math.max(...played) / 5 : 0;
    // Projected count at round end: what is down, part of my hand, part of the rest.
    const projected = played.map((p, a) =>
      p + 0.45 * mine[a] + 0.35 * othersCards * unseen[a] / totalUnseen
      + 0.001 * (n - a)); // ties go to the artist further left
    const order = projected.map((_, a) => a).sort((a, b) => projected[b] - projected[a]);
    const earlier = new Array<number>(n).fill(0);
    for (const row of view.tiles.slice(0, view.round - 1)) {
      row.forEach((t, a) => { earlier[a] += t; });
    }
    const out = new Array<number>(n).fill(0);
    order.forEach((a, place) => {
      if (place < 3) {
        const gap = order.length > 3 ? projected[a] - projected[order[3]] : 2.0;
        const sure = Math.min(1.0, 0.45 + 0.5 * progress + 0.15 * gap);
        out[a] = (TILES[place] + earlier[a]) * sure;
      } else if (place === 3) {
        out[a] = (10 + earlier[a]) * 0.15 * (1 - progress);
      }
    });
    return out;
  }

  lotValue(view: View, cards: number[]): number {
    const vals = this.values(view);
    return sum(cards.map((c) => vals[this.artist(c)]));
  }

  /** The answer to one request: `decision` is its kind, `legal` what it allows. */
  decide(decision: Decision, view: View, legal: Legal): Action {
    const me = this.seat;
    if (decision === "play") {
      return { action: "play", card: this.chooseCard(view, legal.cards ?? []) };
    }
    if (decision === "offer") {
      const double = view.double;
      const cards = legal.cards ?? [];
      if (double === null || cards.length === 0) return { action: "pass" };
      // Adding makes me the auctioneer of both cards and earns me the proceeds (R4.5).
      const best = cards.reduce((b, c) => (this.typeRank(c) < this.typeRank(b) ? c : b));
      if (double.seat === me || this.values(view)[this.artist(double.card)] > 4) {
        return { action: "offer", card: best };
      }
      return { action: "pass" };
    }
    if (decision === "mystery") return { action: "pass" }; // leave the mystery hand alone
    const auction = view.auction;
    if (auction === null) throw new Error(`a ${decision} request without an auction`);
    const value = this.lotValue(view, auction.cards);
    const min = legal.min ?? 0;
    const max = legal.max ?? 0;
    const clamp = (x: number) => Math.max(min, Math.min(max, x));
    const mine = auction.auctioneer === me; // then I would pay the bank
    switch (decision) {
      case "bid": {
        const limit = value * (MARGIN - (mine ? 0.25 : 0.0));
        if (min <= limit) {
          const step = auction.type === "open" ? 1 : Math.max(1, Math.trunc((limit - min) / 2));
          return { action: "bid", amount: Math.min(max, min + step - 1) };
        }
        return { action: "pass" };
      }
      case "hidden_bid":
        return { action: "bid", amount: clamp(Math.trunc(value * (mine ? 0.55 : 0.65))) };
      case "price":
        return { action: "price", amount: clamp(Math.trunc(value * 0.75)) };
      case "buy":
        return (legal.price ?? Infinity) <= value * MARGIN ? { action: "buy" } : { action: "pass" };
      default:
        return { action: "pass" };
    }
  }

  private typeRank(card: number): number {
    return TYPE_RANK[this.typeOf.get(card) ?? ""] ?? 5;
  }

  /** The card whose auction should pay most; ties go to the lowest id. */
  private chooseCard(view: View, cards: number[]): number {
    const vals = this.values(view);
    const inHand = new Array<number>(this.artists).fill(0);
    for (const c of view.hand) inHand[this.artist(c)] += 1;
    const worth = (bought: number[]) => sum(bought.map((c) => vals[this.artist(c)]));
    const score = (card: number): number => {
      const artist = this.artist(card);
      if (view.played[artist] >= 4) { // this card ends the round, unsold
        const mineNow = worth(view.bought[this.seat]);
        const theirs = sum(view.bought.filter((_, s) => s !== this.seat).map(worth))
          / Math.max(1, this.players - 1);
        return mineNow - theirs - 5;
      }
      let s = vals[artist] * 0.6; // what others should pay me
      if (this.typeOf.get(card) === "double") {
        s *= inHand[artist] - 1 > 0 ? 1.8 : 0.3; // a second card to add to it myself?
      }
      return s + 0.5 * inHand[artist]; // push artists I hold
    };
    let best = cards[0];
    let bestScore = score(best);
    for (const c of cards.slice(1)) {
      const s = score(c);
      if (s > bestScore || (s === bestScore && c < best)) {
        best = c;
        bestScore = s;
      }
    }
    return best;
  }
}

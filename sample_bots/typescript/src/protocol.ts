// The messages of protocol version 1 (protocol/README.md), as this bot reads and writes them.
// Only the fields the bot uses are declared; the referee may send more, which are ignored.

export type Decision = "play" | "offer" | "bid" | "hidden_bid" | "price" | "buy" | "mystery";

export interface Card {
  id: number;
  artist: number;
  type: string; // open, once-around, hidden, fixed-price or double
}

export interface Edition {
  name: string;
  artists: string[];
  cards: Card[];
}

export interface NewGame {
  type: "new_game";
  game_id: string;
  seat: number;
  players: number;
  edition: Edition;
  variants: string[];
  /** 0 to 2^63 - 1, for your own randomness (as a JavaScript number, rounded to a double:
   * still the same for the same game and seat). Seed your generator from it and your games
   * are reproducible. Absent from a referee before it. */
  seed?: number;
}

export interface Auction {
  cards: number[];
  type: string;
  auctioneer: number;
  high_bid: number;
  high_bidder: number | null;
  price: number | null;
}

export interface View {
  seat: number;
  round: number;
  money: (number | null)[]; // others' entries are null under hidden-money
  hand: number[];
  hand_sizes: number[];
  mystery_size: number;
  deck_size: number;
  tiles: number[][]; // [round][artist]
  played: number[]; // by artist
  bought: number[][]; // by seat
  unsold: number[];
  auction: Auction | null;
  double: { seat: number; card: number } | null;
  turn: number;
}

export interface Legal {
  cards?: number[];
  min?: number;
  max?: number;
  can_pass?: boolean;
  price?: number;
}

export interface Request {
  type: "request";
  id: number;
  decision: Decision;
  view: View;
  legal: Legal;
}

export interface GameEvent {
  type: string;
  [field: string]: unknown;
}

/** An answer to a request, without its id: {"action":"bid","amount":15}. */
export type Action =
  | { action: "play" | "offer"; card: number }
  | { action: "bid" | "price"; amount: number }
  | { action: "buy" | "pass" | "reveal" };

/** The default answer to each decision: the first legal one. */
export function fallback(decision: Decision, legal: Legal): Action {
  switch (decision) {
    case "play":
      return { action: "play", card: (legal.cards ?? [])[0] };
    case "hidden_bid":
      return { action: "bid", amount: legal.min ?? 0 };
    case "price":
      return { action: "price", amount: legal.min ?? 0 };
    default:
      return { action: "pass" };
  }
}

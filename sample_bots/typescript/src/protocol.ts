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

/** The default answer to each decision (protocol section 8), from what `legal` has. */
export function fallback(decision: Decision, legal: Legal): Action {
  switch (decision) {
    case "play": {
      const cards = Array.isArray(legal.cards) ? legal.cards : [];
      return cards.length > 0 ? { action: "play", card: cards[0] } : { action: "pass" };
    }
    case "hidden_bid":
      return { action: "bid", amount: 0 };
    case "price":
      return { action: "price", amount: legal.min ?? 0 };
    default:
      return { action: "pass" };
  }
}

/** A field the protocol always sends that is missing is an error naming it (`no field "min"`),
 * which the bot logs, never read as 0 or undefined. */
function required(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== "object" || !(key in obj)) {
    throw new Error(`no field "${key}"`);
  }
  return (obj as Record<string, unknown>)[key];
}

/** The fields `legal` has for each decision (protocol section 4): each is required. */
const LEGAL_FIELDS: Record<string, string[]> = {
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

/** Throws, naming the field, when the request lacks one its view or legal always has. */
export function checkRequest(request: Request): void {
  const view = required(request, "view");
  for (const key of VIEW_FIELDS) required(view, key);
  const legal = required(request, "legal");
  try {
    for (const key of LEGAL_FIELDS[request.decision] ?? []) required(legal, key);
  } catch (error) {
    throw new Error(`legal: ${(error as Error).message}`);
  }
}

/** Throws, naming the field, when new_game lacks one the bot reads (`seed` may be absent). */
export function checkNewGame(msg: NewGame): void {
  for (const key of ["game_id", "seat", "players", "variants"]) required(msg, key);
  const edition = required(msg, "edition");
  required(edition, "artists");
  for (const card of required(edition, "cards") as unknown[]) {
    for (const key of ["id", "artist", "type"]) required(card, key);
  }
}

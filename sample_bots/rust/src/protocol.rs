//! The protocol's messages as Rust types, read from parsed JSON, and the lines the bot writes
//! (protocol v1, ../../protocol/README.md). The strategy sees only these types. Unknown
//! fields are ignored, so the bot keeps working when the referee adds some; a field the
//! protocol always sends that is missing is an error (`Err("no field \"min\"")`), which the
//! input loop logs to stderr, never a silent 0.

// The sample strategy reads only some of these fields, and never turns the mystery card
// (`Reply::Reveal`); yours may.
#![allow(dead_code)]

use crate::json::{quote, Json};

/// One card of the edition: its artist (an index into `NewGame::artists`) and auction type
/// ("open", "once-around", "hidden", "fixed-price" or "double").
#[derive(Clone, Debug, Default)]
pub struct Card {
    pub artist: usize,
    pub kind: String,
}

/// The `new_game` message: who we are and the deck. Never assume five artists or a fixed
/// deck: user editions have three to ten artists and any number of cards of each.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub game_id: String,
    pub seat: usize,
    pub players: usize,
    /// Board order: index 0 is the left-most artist, which wins ties.
    pub artists: Vec<String>,
    /// By card id (`None` for an id the edition does not list).
    pub cards: Vec<Option<Card>>,
    pub variants: Vec<String>,
    /// 0 to 2^63 - 1, for your own randomness: seed your generator from it and your games
    /// are reproducible, and a gauntlet's baselines play every candidate the same way (0
    /// from a referee that sends none).
    pub seed: i64,
}

/// The auction running now (`view.auction`).
#[derive(Clone, Debug)]
pub struct Auction {
    /// One card, or a double and its second card.
    pub cards: Vec<usize>,
    /// The auction type of the lot.
    pub kind: String,
    pub auctioneer: usize,
    /// 0 before any bid; hidden bids are not shown.
    pub high_bid: i64,
    pub high_bidder: Option<usize>,
    /// The fixed price while it is on offer.
    pub price: Option<i64>,
}

/// A double waiting for a second card (`view.double`).
#[derive(Clone, Debug)]
pub struct Double {
    /// Who played it.
    pub seat: usize,
    pub card: usize,
}

/// One seat's view of the game, sent with every request (protocol section 6).
#[derive(Clone, Debug)]
pub struct View {
    pub seat: usize,
    pub round: usize,
    /// By seat; others' are `None` under the hidden-money variant.
    pub money: Vec<Option<i64>>,
    /// Our cards, ascending.
    pub hand: Vec<usize>,
    pub hand_sizes: Vec<usize>,
    pub mystery_size: usize,
    pub deck_size: usize,
    /// `[round][artist]`: the tiles given so far.
    pub tiles: Vec<Vec<i64>>,
    /// By artist: cards played this round.
    pub played: Vec<usize>,
    /// By seat: paintings bought this round.
    pub bought: Vec<Vec<usize>>,
    pub unsold: Vec<usize>,
    pub auction: Option<Auction>,
    pub double: Option<Double>,
    pub turn: usize,
}

/// What the request allows; which fields it has depends on the decision (protocol section 4):
/// those it has are read (an error if one is missing), the others are empty or 0.
#[derive(Clone, Debug, Default)]
pub struct Legal {
    /// play, offer
    pub cards: Vec<usize>,
    /// bid, hidden_bid, price
    pub min: i64,
    pub max: i64,
    /// buy
    pub price: i64,
    pub can_pass: bool,
}

/// A request; `decision` is "play", "offer", "bid", "hidden_bid", "price", "buy" or "mystery".
#[derive(Clone, Debug)]
pub struct Request {
    pub decision: String,
    pub view: View,
    pub legal: Legal,
}

/// Our answer to a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Play(usize),
    Offer(usize),
    Bid(i64),
    Price(i64),
    Buy,
    Pass,
    Reveal,
}

// ------------------------------------------------------------------ reading

type Result<T> = std::result::Result<T, String>;

fn field<'a>(obj: &'a Json, key: &str) -> Result<&'a Json> {
    obj.get(key).ok_or_else(|| format!("no field {key:?}"))
}

fn int(value: &Json) -> Result<i64> {
    value
        .as_i64()
        .ok_or_else(|| format!("{} is not an integer", value.to_text()))
}

fn index(value: &Json) -> Result<usize> {
    let n = int(value)?;
    usize::try_from(n).map_err(|_| format!("{n} is not an index"))
}

fn list<T>(value: &Json, item: fn(&Json) -> Result<T>) -> Result<Vec<T>> {
    let items = value
        .as_array()
        .ok_or_else(|| format!("{} is not a list", value.to_text()))?;
    items.iter().map(item).collect()
}

fn indexes(value: &Json) -> Result<Vec<usize>> {
    list(value, index)
}

fn ints(value: &Json) -> Result<Vec<i64>> {
    list(value, int)
}

fn boolean(value: &Json) -> Result<bool> {
    match value {
        Json::Bool(b) => Ok(*b),
        _ => Err(format!("{} is not true or false", value.to_text())),
    }
}

fn text(value: &Json) -> Result<String> {
    value
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{} is not a string", value.to_text()))
}

/// `obj[key]` read by `read`; `default` when the key is absent.
fn or_default<T>(obj: &Json, key: &str, read: fn(&Json) -> Result<T>, default: T) -> Result<T> {
    obj.get(key).map_or(Ok(default), read)
}

/// `obj[key]` read by `read`; `None` when it is null (an error when the key is absent: the
/// protocol sends null, never leaves it out).
fn nullable<T>(obj: &Json, key: &str, read: fn(&Json) -> Result<T>) -> Result<Option<T>> {
    match field(obj, key)? {
        Json::Null => Ok(None),
        value => read(value).map(Some),
    }
}

fn card(value: &Json) -> Result<(usize, Card)> {
    let id = index(field(value, "id")?)?;
    Ok((
        id,
        Card {
            artist: index(field(value, "artist")?)?,
            kind: text(field(value, "type")?)?,
        },
    ))
}

pub fn read_new_game(msg: &Json) -> Result<NewGame> {
    let edition = field(msg, "edition")?;
    let mut cards: Vec<Option<Card>> = Vec::new();
    for (id, c) in list(field(edition, "cards")?, card)? {
        if id >= cards.len() {
            cards.resize(id + 1, None);
        }
        cards[id] = Some(c);
    }
    Ok(NewGame {
        game_id: text(field(msg, "game_id")?)?,
        seat: index(field(msg, "seat")?)?,
        players: index(field(msg, "players")?)?,
        artists: list(field(edition, "artists")?, text)?,
        cards,
        variants: list(field(msg, "variants")?, text)?,
        // documented as 0 from a referee that sends none
        seed: or_default(msg, "seed", int, 0)?,
    })
}

fn auction(a: &Json) -> Result<Auction> {
    Ok(Auction {
        cards: indexes(field(a, "cards")?)?,
        kind: text(field(a, "type")?)?,
        auctioneer: index(field(a, "auctioneer")?)?,
        high_bid: int(field(a, "high_bid")?)?,
        high_bidder: nullable(a, "high_bidder", index)?,
        price: nullable(a, "price", int)?,
    })
}

fn double(d: &Json) -> Result<Double> {
    Ok(Double {
        seat: index(field(d, "seat")?)?,
        card: index(field(d, "card")?)?,
    })
}

fn money(value: &Json) -> Result<Option<i64>> {
    if value.is_null() {
        Ok(None)
    } else {
        int(value).map(Some)
    }
}

fn view(v: &Json) -> Result<View> {
    Ok(View {
        seat: index(field(v, "seat")?)?,
        round: index(field(v, "round")?)?,
        money: list(field(v, "money")?, money)?,
        hand: indexes(field(v, "hand")?)?,
        hand_sizes: indexes(field(v, "hand_sizes")?)?,
        mystery_size: index(field(v, "mystery_size")?)?,
        deck_size: index(field(v, "deck_size")?)?,
        tiles: list(field(v, "tiles")?, ints)?,
        played: indexes(field(v, "played")?)?,
        bought: list(field(v, "bought")?, indexes)?,
        unsold: indexes(field(v, "unsold")?)?,
        auction: nullable(v, "auction", auction)?,
        double: nullable(v, "double", double)?,
        turn: index(field(v, "turn")?)?,
    })
}

/// `legal` of a `decision`: the fields that decision has (protocol section 4), each required.
fn legal(l: &Json, decision: &str) -> Result<Legal> {
    let mut out = Legal {
        can_pass: boolean(field(l, "can_pass")?)?,
        ..Legal::default()
    };
    match decision {
        "play" | "offer" => out.cards = indexes(field(l, "cards")?)?,
        "bid" | "hidden_bid" | "price" => {
            out.min = int(field(l, "min")?)?;
            out.max = int(field(l, "max")?)?;
        }
        "buy" => out.price = int(field(l, "price")?)?,
        _ => {} // mystery: can_pass alone
    }
    Ok(out)
}

pub fn read_request(msg: &Json) -> Result<Request> {
    let decision = text(field(msg, "decision")?)?;
    Ok(Request {
        view: view(field(msg, "view")?)?,
        legal: legal(field(msg, "legal")?, &decision).map_err(|e| format!("legal: {e}"))?,
        decision,
    })
}

// ------------------------------------------------------------------ writing

/// Our `hello` line (without its newline).
pub fn hello_line(name: &str) -> String {
    format!(r#"{{"type":"hello","name":{},"protocol":1}}"#, quote(name))
}

/// The reply to request `id` (echoed as it came, an integer up to 2^53), without its newline.
pub fn reply_line(id: &Json, reply: &Reply) -> String {
    let id = id.to_text();
    match reply {
        Reply::Play(card) => format!(r#"{{"id":{id},"action":"play","card":{card}}}"#),
        Reply::Offer(card) => format!(r#"{{"id":{id},"action":"offer","card":{card}}}"#),
        Reply::Bid(amount) => format!(r#"{{"id":{id},"action":"bid","amount":{amount}}}"#),
        Reply::Price(amount) => format!(r#"{{"id":{id},"action":"price","amount":{amount}}}"#),
        Reply::Buy => format!(r#"{{"id":{id},"action":"buy"}}"#),
        Reply::Pass => format!(r#"{{"id":{id},"action":"pass"}}"#),
        Reply::Reveal => format!(r#"{{"id":{id},"action":"reveal"}}"#),
    }
}

/// The referee's own default for a decision (protocol section 8), from `legal` alone: what
/// to send when the strategy fails.
pub fn fallback(decision: &str, legal: Option<&Json>) -> Reply {
    let first = |key: &str| legal.and_then(|l| l.get(key));
    match decision {
        "play" => match first("cards")
            .and_then(Json::as_array)
            .and_then(|c| c.first())
            .map(index)
        {
            Some(Ok(card)) => Reply::Play(card),
            _ => Reply::Pass,
        },
        "hidden_bid" => Reply::Bid(0),
        "price" => Reply::Price(first("min").and_then(Json::as_i64).unwrap_or(0)),
        _ => Reply::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    const VIEW: &str = r#"{"seat":0,"round":1,"money":[100,100,100],"hand":[3,7],
        "hand_sizes":[2,2,2],"mystery_size":0,"deck_size":30,"tiles":[[0,0,0]],"played":[0,0,0],
        "bought":[[],[],[]],"unsold":[],"auction":null,"double":null,"turn":0}"#;

    fn request(decision: &str, legal: &str) -> Json {
        parse(&format!(
            r#"{{"type":"request","id":1,"decision":"{decision}","legal":{legal},"view":{VIEW}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn reads_the_legal_fields_of_each_decision() {
        let bid = read_request(&request("bid", r#"{"min":11,"max":100,"can_pass":true}"#));
        let legal = bid.unwrap().legal;
        assert_eq!((legal.min, legal.max, legal.can_pass), (11, 100, true));
        let buy = read_request(&request("buy", r#"{"price":30,"can_pass":true}"#));
        assert_eq!(buy.unwrap().legal.price, 30);
        let play = read_request(&request("play", r#"{"cards":[3,7],"can_pass":false}"#));
        assert_eq!(play.unwrap().legal.cards, vec![3, 7]);
    }

    #[test]
    fn a_missing_field_is_an_error_naming_it_not_a_zero() {
        for (decision, legal, missing) in [
            ("bid", r#"{"max":100,"can_pass":true}"#, "min"),
            ("price", r#"{"min":1,"can_pass":false}"#, "max"),
            ("buy", r#"{"can_pass":true}"#, "price"),
            ("play", r#"{"can_pass":false}"#, "cards"),
            ("mystery", r#"{}"#, "can_pass"),
        ] {
            let problem = read_request(&request(decision, legal)).unwrap_err();
            assert_eq!(
                problem,
                format!("legal: no field {missing:?}"),
                "{decision}"
            );
        }
        let without_turn = VIEW.replace(r#","turn":0"#, "");
        let msg = parse(&format!(
            r#"{{"decision":"mystery","legal":{{"can_pass":true}},"view":{without_turn}}}"#
        ))
        .unwrap();
        assert_eq!(read_request(&msg).unwrap_err(), "no field \"turn\"");
    }
}

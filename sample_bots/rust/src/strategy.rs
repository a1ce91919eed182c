//! The strategy: one `Game` per `new_game`, asked for a `Reply` to every request. Start here
//! to write your own bot: `Game::decide` picks the answer to each kind of decision.
//!
//! A port of sample_bots/python/baseline_bot.py, decision for decision. It values each artist
//! from the table: the cards played this round, its own hand, the cards still unseen, and the
//! tiles so far. From a projected end-of-round count it estimates each artist's place and the
//! sale value of one painting, discounted by how sure that place is. It bids up to that value
//! less a margin, prices fixed-price auctions just under it, adds second cards to doubles when
//! that makes it the auctioneer, and plays the card whose auction should pay it most.

use crate::json::Json;
use crate::protocol::{Card, NewGame, Reply, Request, View};

/// The value tiles of a round's first three artists (R5.3).
const TILES: [i64; 3] = [30, 20, 10];
/// The fifth card of an artist ends the round (R5.1).
const ROUND_ENDING_COUNT: usize = 5;
/// Bid at most this share of a painting's estimated value.
const MARGIN: f64 = 0.8;

pub struct Game {
    seat: usize,
    players: usize,
    n_artists: usize,
    /// By card id.
    cards: Vec<Option<Card>>,
    /// Cards of each artist in the edition.
    per_artist: Vec<usize>,
    /// Cards of each artist played in earlier rounds.
    gone: Vec<usize>,
}

impl Game {
    pub fn new(msg: &NewGame) -> Game {
        let n_artists = msg.artists.len();
        let mut per_artist = vec![0; n_artists];
        for card in msg.cards.iter().flatten() {
            if card.artist < n_artists {
                per_artist[card.artist] += 1;
            }
        }
        Game {
            seat: msg.seat,
            players: msg.players,
            n_artists,
            cards: msg.cards.clone(),
            per_artist,
            gone: vec![0; n_artists],
        }
    }

    /// An event of this game (protocol section 5), as sent: track what you need. An event
    /// that cannot be read (a field missing) is an error, which the input loop logs.
    pub fn seen_event(&mut self, event: &Json) -> Result<(), String> {
        if event.get("type").and_then(Json::as_str) == Some("round_ended") {
            let counts = event
                .get("counts")
                .and_then(Json::as_array)
                .ok_or("round_ended without its counts")?;
            for (gone, count) in self.gone.iter_mut().zip(counts) {
                let count = count
                    .as_i64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        format!("round_ended count {} is not a count", count.to_text())
                    })?;
                *gone += count;
            }
        }
        Ok(())
    }

    fn card(&self, id: usize) -> Result<&Card, String> {
        self.cards
            .get(id)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("card {id} is not in the edition"))
    }

    fn artist_of(&self, id: usize) -> Result<usize, String> {
        let artist = self.card(id)?.artist;
        if artist < self.n_artists {
            Ok(artist)
        } else {
            Err(format!("card {id} has no known artist"))
        }
    }

    fn type_rank(&self, id: usize) -> Result<usize, String> {
        const ORDER: [&str; 5] = ["open", "hidden", "once-around", "fixed-price", "double"];
        let kind = &self.card(id)?.kind;
        Ok(ORDER.iter().position(|k| k == kind).unwrap_or(ORDER.len()))
    }

    // -------------------------------------------------------------- valuation

    /// Estimated sale value of one painting of each artist at the end of this round.
    fn values(&self, view: &View) -> Result<Vec<f64>, String> {
        let n = self.n_artists;
        let played = &view.played;
        if played.len() != n {
            return Err(format!(
                "played lists {} artists, the edition {n}",
                played.len()
            ));
        }
        let mut mine = vec![0usize; n];
        for &c in &view.hand {
            mine[self.artist_of(c)?] += 1;
        }
        let others_cards = view.hand_sizes.iter().sum::<usize>() as i64 - view.hand.len() as i64
            + view.mystery_size as i64;
        let unseen: Vec<usize> = (0..n)
            .map(|a| self.per_artist[a].saturating_sub(self.gone[a] + played[a] + mine[a]))
            .collect();
        let total_unseen = match unseen.iter().sum::<usize>() {
            0 => 1,
            total => total,
        };
        let progress = played.iter().max().map_or(0.0, |&m| m as f64 / 5.0);
        // Projected count at round end: what is down, part of my hand, part of the rest.
        let projected: Vec<f64> = (0..n)
            .map(|a| {
                played[a] as f64
                    + 0.45 * mine[a] as f64
                    + 0.35 * others_cards as f64 * unseen[a] as f64 / total_unseen as f64
                    + 0.001 * (n - a) as f64 // ties go to the artist further left
            })
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&x, &y| {
            projected[y]
                .partial_cmp(&projected[x])
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut earlier = vec![0i64; n]; // tiles of earlier rounds
        for row in view.tiles.iter().take(view.round.saturating_sub(1)) {
            for (a, total) in earlier.iter_mut().enumerate() {
                *total += row.get(a).ok_or("a row of tiles is too short")?;
            }
        }
        let mut out = vec![0.0; n];
        for (place, &a) in order.iter().enumerate().take(4) {
            if place < 3 {
                let gap = if n > 3 {
                    projected[a] - projected[order[3]]
                } else {
                    2.0
                };
                let sure = f64::min(1.0, 0.45 + 0.5 * progress + 0.15 * gap);
                out[a] = (TILES[place] + earlier[a]) as f64 * sure;
            } else {
                out[a] = (10 + earlier[a]) as f64 * 0.15 * (1.0 - progress);
            }
        }
        Ok(out)
    }

    fn lot_value(&self, view: &View, cards: &[usize]) -> Result<f64, String> {
        let vals = self.values(view)?;
        let mut sum = 0.0;
        for &c in cards {
            sum += vals[self.artist_of(c)?];
        }
        Ok(sum)
    }

    // -------------------------------------------------------------- decisions

    /// The answer to one request. It need not be legal for main.rs to send it, so keep every
    /// amount within `legal.min..=legal.max` and every card within `legal.cards`. An error
    /// makes main.rs send the referee's default instead.
    pub fn decide(&self, request: &Request) -> Result<Reply, String> {
        let (view, legal) = (&request.view, &request.legal);
        let me = self.seat;
        match request.decision.as_str() {
            "play" => return Ok(Reply::Play(self.choose_card(view, &legal.cards)?)),
            "offer" => {
                let double = view.double.as_ref().ok_or("an offer without a double")?;
                // Adding makes me the auctioneer of both cards and earns me the proceeds.
                let mut best = *legal.cards.first().ok_or("an offer without cards")?;
                for &c in &legal.cards {
                    if self.type_rank(c)? < self.type_rank(best)? {
                        best = c;
                    }
                }
                if double.seat == me || self.values(view)?[self.artist_of(double.card)?] > 4.0 {
                    return Ok(Reply::Offer(best));
                }
                return Ok(Reply::Pass);
            }
            "mystery" => return Ok(Reply::Pass), // leave the mystery hand alone
            _ => {}
        }
        let auction = view.auction.as_ref().ok_or("no auction in the view")?;
        let value = self.lot_value(view, &auction.cards)?;
        let mine = auction.auctioneer == me; // in my own auction I pay the bank
        Ok(match request.decision.as_str() {
            "bid" => {
                let limit = value * (MARGIN - if mine { 0.25 } else { 0.0 });
                if legal.min as f64 <= limit {
                    let step = if auction.kind == "open" {
                        1
                    } else {
                        i64::max(1, ((limit - legal.min as f64) / 2.0) as i64)
                    };
                    Reply::Bid(i64::min(legal.max, legal.min + step - 1))
                } else {
                    Reply::Pass
                }
            }
            "hidden_bid" => {
                let amount = (value * if mine { 0.55 } else { 0.65 }) as i64;
                Reply::Bid(amount.min(legal.max).max(0))
            }
            "price" => {
                let amount = (value * 0.75) as i64;
                Reply::Price(amount.min(legal.max).max(legal.min))
            }
            "buy" if legal.price as f64 <= value * MARGIN => Reply::Buy,
            _ => Reply::Pass, // buy too dear, or a decision this bot does not know
        })
    }

    /// The card to auction: the one whose auction should pay most, pushing artists I hold.
    fn choose_card(&self, view: &View, cards: &[usize]) -> Result<usize, String> {
        let vals = self.values(view)?;
        let mut in_hand = vec![0usize; self.n_artists];
        for &c in &view.hand {
            in_hand[self.artist_of(c)?] += 1;
        }
        let score = |card: usize| -> Result<f64, String> {
            let artist = self.artist_of(card)?;
            if view.played[artist] >= ROUND_ENDING_COUNT - 1 {
                // This card ends the round, unsold: good only if I gain more than the others.
                let (mut mine_now, mut theirs) = (0.0, 0.0);
                for (seat, bought) in view.bought.iter().enumerate() {
                    for &c in bought {
                        let v = vals[self.artist_of(c)?];
                        if seat == self.seat {
                            mine_now += v;
                        } else {
                            theirs += v;
                        }
                    }
                }
                return Ok(mine_now
                    - theirs / usize::max(1, self.players.saturating_sub(1)) as f64
                    - 5.0);
            }
            let mut s = vals[artist] * 0.6; // what others should pay me
            if self.card(card)?.kind == "double" {
                let partner = in_hand[artist] as i64 - 1;
                s = if partner > 0 { s * 1.8 } else { s * 0.3 };
            }
            Ok(s + 0.5 * in_hand[artist] as f64)
        };
        let mut best: Option<(f64, usize)> = None;
        for &c in cards {
            let s = score(c)?;
            // The best score; of equals, the lowest card id.
            if best.map_or(true, |(bs, bc)| s > bs || (s == bs && c < bc)) {
                best = Some((s, c));
            }
        }
        best.map(|(_, c)| c)
            .ok_or_else(|| "no card to play".to_string())
    }
}

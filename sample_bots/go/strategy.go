package main

// The strategy: a port of sample_bots/python/baseline_bot.py.  It values each artist from
// the table (cards played this round, its own hand, the cards still unseen, the tiles so
// far), bids up to that value less a margin, prices fixed-price lots just under it, adds
// second cards to doubles, and plays the card whose auction should pay it most.  Change
// Decide (and what it calls) to write your own.

import (
	"fmt"
	"sort"
)

var tiles = [3]float64{30, 20, 10} // the value tiles of the 1st, 2nd and 3rd artist

const margin = 0.8 // bid at most this share of a painting's estimated value

// typeRank orders auction types for the second card of a double: open auctions first.
var typeRank = map[string]int{"open": 0, "hidden": 1, "once-around": 2, "fixed-price": 3, "double": 4}

// Game is what the bot keeps for one game, from new_game and the events.
type Game struct {
	seat, players int
	artists       int            // how many artists this edition has (never assume five)
	artistOf      map[int]int    // card id -> artist index
	typeOf        map[int]string // card id -> auction type
	perArtist     []int          // cards of each artist in the edition
	gone          []int          // cards of each artist played in earlier rounds
}

// NewGame starts a game from its new_game message.
func NewGame(seat, players int, edition *Edition) *Game {
	g := &Game{
		seat: seat, players: players, artists: len(edition.Artists),
		artistOf: make(map[int]int), typeOf: make(map[int]string),
		perArtist: make([]int, len(edition.Artists)), gone: make([]int, len(edition.Artists)),
	}
	for _, c := range edition.Cards {
		g.artistOf[c.ID] = c.Artist
		g.typeOf[c.ID] = c.Type
		g.perArtist[c.Artist]++
	}
	return g
}

// SeenEvent keeps count of the cards of earlier rounds (round_ended's counts).
func (g *Game) SeenEvent(ev Event) {
	if ev.Type == "round_ended" {
		for a, n := range ev.Counts {
			if a < g.artists {
				g.gone[a] += n
			}
		}
	}
}

func (g *Game) artist(card int) int {
	a, ok := g.artistOf[card]
	if !ok {
		panic(fmt.Sprintf("card %d is not in the edition", card))
	}
	return a
}

// Values is the estimated sale value of one painting of each artist at this round's end.
func (g *Game) Values(view *View) []float64 {
	n := g.artists
	played := view.Played
	mine := make([]int, n)
	for _, c := range view.Hand {
		mine[g.artist(c)]++
	}
	handSizes := 0
	for _, s := range view.HandSizes {
		handSizes += s
	}
	othersCards := float64(handSizes - len(view.Hand) + view.MysterySize)
	unseen := make([]float64, n)
	totalUnseen := 0.0
	maxPlayed := 0
	for a := 0; a < n; a++ {
		unseen[a] = float64(max(0, g.perArtist[a]-g.gone[a]-played[a]-mine[a]))
		totalUnseen += unseen[a]
		maxPlayed = max(maxPlayed, played[a])
	}
	if totalUnseen == 0 {
		totalUnseen = 1
	}
	progress := float64(maxPlayed) / 5
	// Projected count at round end: what is down, part of my hand, part of the rest.
	projected := make([]float64, n)
	for a := 0; a < n; a++ {
		projected[a] = float64(played[a]) + 0.45*float64(mine[a]) +
			0.35*othersCards*unseen[a]/totalUnseen +
			0.001*float64(n-a) // ties go to the artist further left
	}
	order := make([]int, n)
	for a := range order {
		order[a] = a
	}
	sort.SliceStable(order, func(i, j int) bool { return projected[order[i]] > projected[order[j]] })
	earlier := make([]float64, n)
	for r := 0; r < view.Round-1 && r < len(view.Tiles); r++ {
		for a := 0; a < n && a < len(view.Tiles[r]); a++ {
			earlier[a] += float64(view.Tiles[r][a])
		}
	}
	values := make([]float64, n)
	for place, a := range order {
		if place < 3 {
			gap := 2.0
			if n > 3 {
				gap = projected[a] - projected[order[3]]
			}
			sure := min(1.0, 0.45+0.5*progress+0.15*gap)
			values[a] = (tiles[place] + earlier[a]) * sure
		} else if place == 3 {
			values[a] = (10 + earlier[a]) * 0.15 * (1 - progress)
		}
	}
	return values
}

// lotValue is the estimated worth of the cards of one auction.
func (g *Game) lotValue(view *View, cards []int) float64 {
	values := g.Values(view)
	total := 0.0
	for _, c := range cards {
		total += values[g.artist(c)]
	}
	return total
}

// Decide answers one request: decision is its kind, legal what it allows.
func (g *Game) Decide(decision string, view *View, legal *Legal) Reply {
	me := g.seat
	switch decision {
	case "play":
		return withCard("play", g.chooseCard(view, legal.Cards))
	case "offer":
		// Adding makes me the auctioneer of both cards and earns me the proceeds (R4.5).
		best := legal.Cards[0]
		for _, c := range legal.Cards[1:] {
			if typeRank[g.typeOf[c]] < typeRank[g.typeOf[best]] {
				best = c
			}
		}
		if view.Double.Seat == me || g.Values(view)[g.artist(view.Double.Card)] > 4 {
			return withCard("offer", best)
		}
		return pass()
	case "mystery":
		return pass() // leave the mystery hand alone
	}
	auction := view.Auction
	value := 0.0
	if auction != nil {
		value = g.lotValue(view, auction.Cards)
	}
	switch decision {
	case "bid":
		mine := auction.Auctioneer == me // then I would pay the bank
		limit := value * margin
		if mine {
			limit = value * (margin - 0.25)
		}
		if float64(legal.Min) <= limit {
			step := 1 // open: one step at a time
			if auction.Type != "open" {
				step = max(1, int((limit-float64(legal.Min))/2))
			}
			return withAmount("bid", min(legal.Max, legal.Min+step-1))
		}
		return pass()
	case "hidden_bid":
		share := 0.65
		if auction.Auctioneer == me {
			share = 0.55
		}
		return withAmount("bid", clamp(int(value*share), legal.Min, legal.Max))
	case "price":
		return withAmount("price", clamp(int(value*0.75), legal.Min, legal.Max))
	case "buy":
		if float64(legal.Price) <= value*margin {
			return Reply{Action: "buy"}
		}
		return pass()
	}
	logf("unknown decision %q, passing", decision)
	return pass()
}

// chooseCard is the card whose auction should pay most; ties go to the lowest id.
func (g *Game) chooseCard(view *View, cards []int) int {
	values := g.Values(view)
	inHand := make([]int, g.artists)
	for _, c := range view.Hand {
		inHand[g.artist(c)]++
	}
	score := func(card int) float64 {
		artist := g.artist(card)
		if view.Played[artist] >= 4 { // this card ends the round, unsold
			mineNow, theirs := 0.0, 0.0
			for s, bought := range view.Bought {
				for _, c := range bought {
					if s == g.seat {
						mineNow += values[g.artist(c)]
					} else {
						theirs += values[g.artist(c)]
					}
				}
			}
			return mineNow - theirs/float64(max(1, g.players-1)) - 5
		}
		s := values[artist] * 0.6 // what others should pay me
		if g.typeOf[card] == "double" {
			if inHand[artist]-1 > 0 { // a second card to add to it myself
				s *= 1.8
			} else {
				s *= 0.3
			}
		}
		return s + 0.5*float64(inHand[artist]) // push artists I hold
	}
	best, bestScore := cards[0], score(cards[0])
	for _, c := range cards[1:] {
		if s := score(c); s > bestScore || (s == bestScore && c < best) {
			best, bestScore = c, s
		}
	}
	return best
}

func clamp(x, lo, hi int) int { return max(lo, min(hi, x)) }

// min and max: Go 1.21 has them built in; Debian's Go 1.19 does not.
func min[T int | float64](a, b T) T {
	if a < b {
		return a
	}
	return b
}

func max[T int | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}

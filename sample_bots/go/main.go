// A Modern Art bot for the referee's protocol version 1, in Go with the standard library only.
//
// This file speaks the protocol: it reads one JSON message per line from stdin, answers
// hello and every request on stdout (one line each, flushed at once), and logs to stderr.
// The strategy is in strategy.go.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

const botName = "go_baseline"

// Message is any message from the referee; each type fills the fields it has, and fields
// this bot does not use are ignored (a robust bot reads leniently).  The edition, view,
// legal and event are read by readNewGame, readRequest and readEvent, which check that every
// field the protocol always sends is there: encoding/json would read a missing one as 0.
type Message struct {
	Type     string          `json:"type"`
	ID       int64           `json:"id"`
	Seat     int             `json:"seat"`
	Players  int             `json:"players"`
	Seed     uint64          `json:"seed"` // new_game: seeds your own randomness (README)
	Edition  json.RawMessage `json:"edition"`
	Decision string          `json:"decision"`
	View     json.RawMessage `json:"view"`
	Legal    json.RawMessage `json:"legal"`
	Event    json.RawMessage `json:"event"`
	Fault    string          `json:"fault"`
	Reason   string          `json:"reason"`
	Ranks    []int           `json:"ranks"`
}

// Edition is the deck: artists in board order and every card's artist and auction type.
type Edition struct {
	Name    string   `json:"name"`
	Artists []string `json:"artists"`
	Cards   []Card   `json:"cards"`
}

// Card is one card of the edition.
type Card struct {
	ID     int    `json:"id"`
	Artist int    `json:"artist"`
	Type   string `json:"type"`
}

// View is one seat's view of the game, sent with every request (protocol section 6).
type View struct {
	Seat        int      `json:"seat"`
	Round       int      `json:"round"`
	Money       []*int   `json:"money"` // others' entries are null under hidden-money
	Hand        []int    `json:"hand"`
	HandSizes   []int    `json:"hand_sizes"`
	MysterySize int      `json:"mystery_size"`
	DeckSize    int      `json:"deck_size"`
	Tiles       [][]int  `json:"tiles"`
	Played      []int    `json:"played"`
	Bought      [][]int  `json:"bought"`
	Unsold      []int    `json:"unsold"`
	Auction     *Auction `json:"auction"`
	Double      *Double  `json:"double"`
	Turn        int      `json:"turn"`
}

// Auction is the auction running now.
type Auction struct {
	Cards      []int  `json:"cards"`
	Type       string `json:"type"`
	Auctioneer int    `json:"auctioneer"`
	HighBid    int    `json:"high_bid"`
	HighBidder *int   `json:"high_bidder"`
	Price      *int   `json:"price"`
}

// Double is a double waiting for a second card.
type Double struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

// Legal says what a request allows; which fields it has depends on the decision (protocol
// section 4): those it has are read (an error if one is missing), the others are empty or 0.
type Legal struct {
	Cards   []int `json:"cards"`
	Min     int   `json:"min"`
	Max     int   `json:"max"`
	CanPass bool  `json:"can_pass"`
	Price   int   `json:"price"`
}

// Event is a game event; only the fields the strategy tracks are read.
type Event struct {
	Type   string `json:"type"`
	Counts []int  `json:"counts"`
}

// Hello is the bot's answer to the referee's hello.
type Hello struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Protocol int    `json:"protocol"`
}

// Reply is an answer to a request: {"id":17,"action":"bid","amount":15}.  Card and Amount
// are pointers so that an amount of 0 is still written and a missing one is left out.
type Reply struct {
	ID     int64  `json:"id"`
	Action string `json:"action"`
	Card   *int   `json:"card,omitempty"`
	Amount *int   `json:"amount,omitempty"`
}

func pass() Reply                            { return Reply{Action: "pass"} }
func withCard(action string, card int) Reply { return Reply{Action: action, Card: &card} }
func withAmount(action string, amount int) Reply {
	return Reply{Action: action, Amount: &amount}
}

var out = bufio.NewWriter(os.Stdout)

// send writes one protocol line and flushes it: an unflushed reply never arrives.  If the
// referee has gone (a write error), the bot just ends.
func send(v interface{}) {
	line, err := json.Marshal(v)
	if err == nil {
		out.Write(line)
		out.WriteByte('\n')
		err = out.Flush()
	}
	if err != nil {
		logf("cannot write: %v", err)
		os.Exit(0)
	}
}

func logf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, botName+": "+format+"\n", args...)
}

func main() {
	in := bufio.NewReader(os.Stdin) // no line limit: new_game is several KiB
	var game *Game
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if !handle(line, &game) {
				return
			}
		}
		if err == io.EOF {
			return
		} else if err != nil {
			logf("cannot read: %v", err)
			return
		}
	}
}

// handle acts on one line; false once the session is over (goodbye).
func handle(line []byte, game **Game) bool {
	var msg Message
	err := json.Unmarshal(line, &msg)
	var mistyped *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &mistyped) { // a field of the wrong type: read below
		if len(line) > 1 { // a blank line is not worth a log line
			logf("not a message, ignored (%v)", err)
		}
		return true
	}
	switch msg.Type {
	case "hello":
		send(Hello{Type: "hello", Name: botName, Protocol: 1})
	case "new_game":
		*game = nil // until this one is read: its requests get the default answers
		edition, err := readNewGame(line, msg, err)
		if err != nil {
			logf("cannot read new_game (%v); answering the defaults", err)
		} else {
			*game = start(msg, edition)
		}
	case "event":
		if *game != nil {
			if ev, err := readEvent(msg.Event); err != nil {
				logf("cannot read an event (%v), ignored", err)
			} else {
				see(*game, ev)
			}
		}
	case "request":
		reply := answer(*game, msg, err)
		reply.ID = msg.ID
		send(reply)
	case "warning":
		logf("warning for request %d: %s: %s", msg.ID, msg.Fault, msg.Reason)
	case "game_end":
		logf("game over, ranks %v", msg.Ranks)
		*game = nil
	case "goodbye":
		return false
	}
	return true
}

// answer is the strategy's reply, or the decision's default if the request cannot be read
// (a field missing) or the strategy fails: a bug in the strategy then costs a move, not a
// fault.  mistyped is the error of reading the message, if a field had the wrong type.
func answer(game *Game, msg Message, mistyped error) (reply Reply) {
	view, legal, err := readRequest(msg, mistyped)
	if err == nil && game == nil {
		err = errors.New("no game: its new_game was missing or unreadable")
	}
	if err != nil {
		logf("request %d (%s): %v; falling back to the default", msg.ID, msg.Decision, err)
		return fallback(msg.Decision, msg.Legal)
	}
	defer func() {
		if err := recover(); err != nil {
			logf("request %d (%s): %v%s; falling back to the default", msg.ID, msg.Decision,
				err, where("answer"))
			reply = fallback(msg.Decision, msg.Legal)
		}
	}()
	return game.Decide(msg.Decision, view, legal)
}

// see hands an event to the strategy.  A panic in its tracking (a nil payee: the bank) is
// logged with its place, in the words the other kits use, and the event is ignored: the bot
// plays on with that event untracked, rather than crash and be retired for the game.
func see(game *Game, ev Event) {
	defer func() {
		if err := recover(); err != nil {
			logf("cannot read an event (%s: %v%s), ignored", ev.Type, err, where("see"))
		}
	}()
	game.SeenEvent(ev)
}

// start makes the strategy's Game for a new game.  A panic in its set-up is logged with its
// place, and that game's requests get the default answers (game stays nil): the bot plays
// on, as a new_game it cannot read, rather than crash and be retired for the game.
func start(msg Message, edition *Edition) (game *Game) {
	defer func() {
		if err := recover(); err != nil {
			logf("cannot read new_game (%v%s); answering the defaults", err, where("start"))
			game = nil
		}
	}()
	return NewGame(msg.Seat, msg.Players, edition)
}

// Go runs f in a goroutine of its own, as `go f()` does, but recovers from a panic in it: by
// Go's rule a panic that no deferred recover of its own goroutine catches ends the whole bot,
// which the recover in answer cannot prevent from another goroutine.  The panic is logged in
// one line with its place, as one in the strategy (`go_baseline: panic in a goroutine:
// runtime error: index out of range [5] with length 2 at strategy.go:141 in
// (*Game).Decide.func1; the goroutine ended`), and only that goroutine ends: what it must do
// at its end (a WaitGroup's Done, closing a channel it would send its result on), defer in f,
// so that it runs on a panic too.
func Go(f func()) {
	go recovered(f)
}

// recovered calls f, logging a panic in it: the body of Go's goroutine.
func recovered(f func()) {
	defer func() {
		if err := recover(); err != nil {
			logf("panic in a goroutine: %v%s; the goroutine ended", err, where("recovered"))
		}
	}()
	f()
}

// where is the place in this bot's code where a panic came from, called by the deferred
// recover of recoverer (answer, see, start or recovered): " at strategy.go:150 in (*Game).Decide" (then
// ", from ..." its callers in package main, three at most, up to recoverer), the line to
// look at.
func where(recoverer string) string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	var places []string
	for len(places) < 3 {
		f, more := frames.Next()
		name := strings.TrimPrefix(f.Function, "main.")
		switch {
		case strings.HasPrefix(name, recoverer+".func"), name == f.Function:
			// the recover itself, and the runtime's and other packages' functions
		case name == recoverer:
			if len(places) == 0 { // the panic was the recoverer's own
				places = append(places, fmt.Sprintf("%s:%d in %s", filepath.Base(f.File), f.Line, name))
			}
			more = false
		default:
			places = append(places, fmt.Sprintf("%s:%d in %s", filepath.Base(f.File), f.Line, name))
		}
		if !more {
			break
		}
	}
	if len(places) == 0 {
		return ""
	}
	return " at " + strings.Join(places, ", from ")
}

// fallback is the first legal answer to each decision (the referee's default), from legal
// as far as it can be read.
func fallback(decision string, raw json.RawMessage) Reply {
	var legal Legal
	json.Unmarshal(raw, &legal) // what cannot be read stays empty or 0
	switch decision {
	case "play":
		if len(legal.Cards) > 0 {
			return withCard("play", legal.Cards[0])
		}
	case "hidden_bid":
		return withAmount("bid", legal.Min)
	case "price":
		return withAmount("price", legal.Min)
	}
	return pass()
}

// Reading.  The protocol always sends these fields (but seed, which a referee before it did
// not send): a missing one is an error naming it (`legal: no field "min"`), never a silent 0.

// need checks that raw is a JSON object with every one of keys; those ending in "?" may be
// null, the others not.
func need(raw json.RawMessage, keys ...string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fmt.Errorf("not an object: %.40s", raw)
	}
	for _, key := range keys {
		nullable := strings.HasSuffix(key, "?")
		key = strings.TrimSuffix(key, "?")
		value, ok := obj[key]
		if !ok {
			return fmt.Errorf("no field %q", key)
		}
		if !nullable && string(value) == "null" {
			return fmt.Errorf("field %q is null", key)
		}
	}
	return nil
}

// needEach checks need(element, keys...) of each element of the JSON array raw.
func needEach(raw json.RawMessage, keys ...string) error {
	var elements []json.RawMessage
	if err := json.Unmarshal(raw, &elements); err != nil {
		return fmt.Errorf("not a list: %.40s", raw)
	}
	for _, element := range elements {
		if err := need(element, keys...); err != nil {
			return err
		}
	}
	return nil
}

// readNewGame is new_game's edition, checked; mistyped is the error of reading the message.
func readNewGame(line []byte, msg Message, mistyped error) (*Edition, error) {
	if err := need(line, "game_id", "seat", "players", "edition", "variants"); err != nil {
		return nil, err
	}
	if mistyped != nil {
		return nil, mistyped
	}
	var edition Edition
	var cards struct {
		Cards json.RawMessage `json:"cards"`
	}
	if err := need(msg.Edition, "artists", "cards"); err != nil {
		return nil, fmt.Errorf("edition: %v", err)
	} else if err := json.Unmarshal(msg.Edition, &cards); err != nil {
		return nil, fmt.Errorf("edition: %v", err)
	} else if err := needEach(cards.Cards, "id", "artist", "type"); err != nil {
		return nil, fmt.Errorf("edition's cards: %v", err)
	} else if err := json.Unmarshal(msg.Edition, &edition); err != nil {
		return nil, fmt.Errorf("edition: %v", err)
	}
	for _, c := range edition.Cards {
		if c.Artist < 0 || c.Artist >= len(edition.Artists) {
			return nil, fmt.Errorf("edition: card %d has no artist %d", c.ID, c.Artist)
		}
	}
	return &edition, nil
}

// readRequest is a request's view and legal, checked; mistyped is the error of reading the
// message.
func readRequest(msg Message, mistyped error) (*View, *Legal, error) {
	if mistyped != nil {
		return nil, nil, mistyped
	} else if msg.View == nil {
		return nil, nil, errors.New(`no field "view"`)
	} else if msg.Legal == nil {
		return nil, nil, errors.New(`no field "legal"`)
	}
	if err := need(msg.View, "seat", "round", "money", "hand", "hand_sizes", "mystery_size",
		"deck_size", "tiles", "played", "bought", "unsold", "auction?", "double?",
		"turn"); err != nil {
		return nil, nil, fmt.Errorf("view: %v", err)
	}
	var view View
	if err := json.Unmarshal(msg.View, &view); err != nil {
		return nil, nil, fmt.Errorf("view: %v", err)
	}
	var parts struct {
		Auction json.RawMessage `json:"auction"`
		Double  json.RawMessage `json:"double"`
	}
	json.Unmarshal(msg.View, &parts) // read above
	if view.Auction != nil {
		if err := need(parts.Auction, "cards", "type", "auctioneer", "high_bid",
			"high_bidder?", "price?"); err != nil {
			return nil, nil, fmt.Errorf("view.auction: %v", err)
		}
	}
	if view.Double != nil {
		if err := need(parts.Double, "seat", "card"); err != nil {
			return nil, nil, fmt.Errorf("view.double: %v", err)
		}
	}
	keys := map[string][]string{ // the fields legal has for each decision
		"play": {"cards"}, "offer": {"cards"}, "bid": {"min", "max"},
		"hidden_bid": {"min", "max"}, "price": {"min", "max"}, "buy": {"price"},
	}[msg.Decision]
	var legal Legal
	if err := need(msg.Legal, append(keys, "can_pass")...); err != nil {
		return nil, nil, fmt.Errorf("legal: %v", err)
	} else if err := json.Unmarshal(msg.Legal, &legal); err != nil {
		return nil, nil, fmt.Errorf("legal: %v", err)
	}
	return &view, &legal, nil
}

// readEvent is an event, checked: round_ended must have its counts.
func readEvent(raw json.RawMessage) (Event, error) {
	var ev Event
	if raw == nil {
		return ev, errors.New(`no field "event"`)
	}
	if err := need(raw, "type"); err != nil {
		return ev, err
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		return ev, err
	}
	if ev.Type == "round_ended" {
		if err := need(raw, "counts"); err != nil {
			return ev, fmt.Errorf("round_ended: %v", err)
		}
	}
	return ev, nil
}

// A Modern Art bot for the referee's protocol version 1, in Go with the standard library only.
//
// This file speaks the protocol: it reads one JSON message per line from stdin, answers
// hello and every request on stdout (one line each, flushed at once), and logs to stderr.
// The strategy is in strategy.go.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

const botName = "go_baseline"

// Message is any message from the referee; each type fills the fields it has, and fields
// this bot does not use are ignored (a robust bot reads leniently).
type Message struct {
	Type     string          `json:"type"`
	ID       int64           `json:"id"`
	Seat     int             `json:"seat"`
	Players  int             `json:"players"`
	Seed     uint64          `json:"seed"` // new_game: for your own randomness (math/rand.NewPCG)
	Edition  *Edition        `json:"edition"`
	Decision string          `json:"decision"`
	View     *View           `json:"view"`
	Legal    *Legal          `json:"legal"`
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

// Legal says what a request allows; which fields are set depends on the decision.
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
	if err := json.Unmarshal(line, &msg); err != nil {
		if len(line) > 1 { // a blank line is not worth a log line
			logf("not a message, ignored (%v)", err)
		}
		return true
	}
	switch msg.Type {
	case "hello":
		send(Hello{Type: "hello", Name: botName, Protocol: 1})
	case "new_game":
		if msg.Edition != nil {
			*game = NewGame(msg.Seat, msg.Players, msg.Edition)
		}
	case "event":
		var ev Event
		if *game != nil && json.Unmarshal(msg.Event, &ev) == nil {
			(*game).SeenEvent(ev)
		}
	case "request":
		reply := answer(*game, msg)
		reply.ID = msg.ID
		send(reply)
	case "warning":
		logf("warning for request %d: %s: %s", msg.ID, msg.Fault, msg.Reason)
	case "game_end":
		logf("game over, ranks %v", msg.Ranks)
	case "goodbye":
		return false
	}
	return true
}

// answer is the strategy's reply, or the decision's default if the strategy fails: a bug in
// the strategy then costs a move, not a fault.
func answer(game *Game, msg Message) (reply Reply) {
	legal := msg.Legal
	if legal == nil {
		legal = &Legal{}
	}
	defer func() {
		if err := recover(); err != nil {
			logf("request %d (%s): %v%s; falling back to the default", msg.ID, msg.Decision,
				err, where())
			reply = fallback(msg.Decision, legal)
		}
	}()
	if game == nil || msg.View == nil {
		panic("a request without a game or a view")
	}
	return game.Decide(msg.Decision, msg.View, legal)
}

// where is the place in this bot's code where a panic came from, called by answer's
// deferred recover: " at strategy.go:150 in (*Game).Decide" (then ", from ..." its callers
// in package main, three at most, up to answer), the line to look at.
func where() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	var places []string
	for len(places) < 3 {
		f, more := frames.Next()
		name := strings.TrimPrefix(f.Function, "main.")
		switch {
		case strings.HasPrefix(name, "answer.func"), name == f.Function:
			// the recover itself, and the runtime's and other packages' functions
		case name == "answer":
			if len(places) == 0 { // the panic was answer's own
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

// fallback is the first legal answer to each decision.
func fallback(decision string, legal *Legal) Reply {
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

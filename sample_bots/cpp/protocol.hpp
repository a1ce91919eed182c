// The protocol's messages as C++ types, and the JSON they are read from and written to
// (protocol v1, ../../protocol/README.md). The strategy sees only these types.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

// One card of the edition: its artist (an index into Edition::artists) and auction type
// ("open", "once-around", "hidden", "fixed-price" or "double").
struct Card {
    int artist = -1;
    std::string type;
};

// The `new_game` message: who we are and the deck. Never assume five artists or a fixed
// deck: user editions have three to ten artists and any number of cards of each.
struct NewGame {
    std::string game_id;
    int seat = 0;
    int players = 0;
    std::vector<std::string> artists;  // board order: index 0 is the left-most (wins ties)
    std::vector<Card> cards;           // by card id
    std::vector<std::string> variants;
    // 0 to 2^63 - 1, for your own randomness: seed your generator from it and your games are
    // reproducible, and a gauntlet's baselines play every candidate the same way.
    std::uint64_t seed = 0;
};

// The auction running now (view.auction).
struct Auction {
    std::vector<int> cards;  // one card, or a double and its second card
    std::string type;        // the auction type of the lot
    int auctioneer = 0;
    int high_bid = 0;                  // 0 before any bid; hidden bids are not shown
    std::optional<int> high_bidder;
    std::optional<int> price;          // the fixed price while it is on offer
};

// A double waiting for a second card (view.double).
struct Double {
    int seat = 0;  // who played it
    int card = 0;
};

// One seat's view of the game, sent with every request (protocol section 6).
struct View {
    int seat = 0;
    int round = 1;
    std::vector<std::optional<int>> money;  // by seat; others' are empty under hidden-money
    std::vector<int> hand;                  // our cards, ascending
    std::vector<int> hand_sizes;            // by seat
    int mystery_size = 0;
    int deck_size = 0;
    std::vector<std::vector<int>> tiles;    // [round][artist]: tiles given so far
    std::vector<int> played;                // by artist: cards played this round
    std::vector<std::vector<int>> bought;   // by seat: paintings bought this round
    std::vector<int> unsold;
    std::optional<Auction> auction;
    std::optional<Double> double_card;
    int turn = 0;
};

// What the request allows; which fields it has depends on the decision (protocol section 4):
// those it has are read (an error if one is missing), the others are empty or 0.
struct Legal {
    std::vector<int> cards;      // play, offer
    int min = 0;                 // bid, hidden_bid, price
    int max = 0;
    int price = 0;               // buy
    bool can_pass = false;
};

// A request: decision is "play", "offer", "bid", "hidden_bid", "price", "buy" or "mystery".
struct Request {
    json id;  // echoed back unchanged (an integer up to 2^53)
    std::string decision;
    View view;
    Legal legal;
};

// Our answer: action is "play", "offer", "bid", "price", "buy", "pass" or "reveal".
struct Reply {
    std::string action;
    std::optional<int> card;    // play, offer
    std::optional<int> amount;  // bid, price

    static Reply pass() { return {"pass", std::nullopt, std::nullopt}; }
    static Reply with_card(const std::string& action, int card) { return {action, card, std::nullopt}; }
    static Reply with_amount(const std::string& action, int amount) { return {action, std::nullopt, amount}; }
};

// A field the protocol always sends is missing: its message names it (`legal: no field "min"`).
struct MissingField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reading: each throws when a field the protocol always sends is missing (a MissingField) or
// mistyped (a json::exception); only `seed` may be absent (0).
NewGame read_new_game(const json& msg);
Request read_request(const json& msg);

// Writing: one line of JSON, without its newline.
std::string hello_line(const std::string& name);
std::string reply_line(const json& id, const Reply& reply);

// The referee's own default for a decision (protocol section 8), built from `legal` alone:
// what to send when the strategy fails.
Reply fallback(const std::string& decision, const json& legal);

// The protocol's messages as plain C++ types (protocol v1, ../../protocol/README.md): the
// strategy sees only these. main.cpp reads them from the referee's JSON and writes the Reply
// back; it is the only file that includes <nlohmann/json.hpp>, so a change to the strategy
// rebuilds strategy.cpp alone, without parsing that large header again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
// Its id is main.cpp's business: it copies it into the reply, unchanged.
struct Request {
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

// An event of the game (protocol section 5), for Game::seen_event. Which fields it has depends
// on its type; those it has are read (an error if one is missing), the others are empty or 0.
struct Event {
    std::string type;  // "round_started", "card_played", "auction_won", "round_ended", ...
    int seat = 0;      // who acted: cards_dealt, card_played, second_card_declined, bid, pass,
                       // price_set, mystery_revealed, mystery_declined, paintings_sold
    int round = 0;     // round_started, round_ended
    int card = 0;      // card_played, mystery_revealed
    int count = 0;     // card_played, mystery_revealed: that artist's cards this round, this one included
    std::vector<int> cards;  // cards_dealt, auction_started, auction_won, paintings_sold
    int amount = 0;          // bid, payment, paintings_sold
    int price = 0;           // price_set, auction_won
    bool forced = false;     // pass: the seat could not afford to bid and was not asked
    int auctioneer = 0;      // auction_started, auction_won
    std::string auction_type;  // auction_started
    int winner = 0;            // auction_won
    std::optional<int> payer;  // payment: empty is the bank
    std::optional<int> payee;
    int first_seat = 0;           // round_started
    std::vector<int> hand_sizes;  // round_started: by seat, after the deal
    int mystery_size = 0;         // round_started
    std::vector<int> amounts;     // hidden_bids_revealed: by seat, 0 = no bid
    int ender = 0;                // round_ended: who played or turned the round-ending card
    std::vector<int> counts;      // round_ended: cards of each artist played this round
    std::vector<int> ranking;     // round_ended: artists, first to third
    std::vector<int> tiles;       // round_ended: by artist, given this round
    std::vector<int> values;      // round_ended: by artist, what one painting sells for now
    std::vector<int> unsold;      // round_ended
    std::vector<int> money;       // game_ended: by seat
    std::vector<int> ranks;       // game_ended: by seat, 1 = best
    std::vector<int> winners;     // game_ended
};

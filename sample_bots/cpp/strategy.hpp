// The strategy: one Game per `new_game`, asked for a Reply to every request.
// Start here to write your own bot: decide() picks the answer to each kind of decision.
#pragma once

#include <string>
#include <vector>

#include "protocol.hpp"

class Game {
public:
    explicit Game(const NewGame& msg);

    // An event of this game (protocol section 5): track what you need.
    void seen_event(const Event& event);

    // The answer to one request. It need not be legal: main.cpp checks nothing, so keep
    // every amount within legal.min..legal.max and every card within legal.cards.
    Reply decide(const Request& request) const;

private:
    std::vector<double> values(const View& view) const;
    double lot_value(const View& view, const std::vector<int>& cards) const;
    int choose_card(const View& view, const std::vector<int>& cards) const;
    int artist_of(int card) const;
    int type_rank(int card) const;

    int seat_;
    int players_;
    int n_artists_;
    std::vector<Card> cards_;      // by card id
    std::vector<int> per_artist_;  // cards of each artist in the edition
    std::vector<int> gone_;        // cards of each artist played in earlier rounds
};

// A port of sample_bots/python/baseline_bot.py, decision for decision.
//
// It values each artist from the table: the cards played this round, its own hand, the cards
// still unseen, and the tiles so far. From a projected end-of-round count it estimates each
// artist's place and the sale value of one painting, discounted by how sure that place is.
// It bids up to that value less a margin, prices fixed-price auctions just under it, adds
// second cards to doubles when that makes it the auctioneer, and plays the card whose auction
// should pay it most.
#include "strategy.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace {

const int TILES[3] = {30, 20, 10};  // the value tiles of a round's first three artists (R5.3)
const int ROUND_ENDING_COUNT = 5;   // the fifth card of an artist ends the round (R5.1)
const double MARGIN = 0.8;          // bid at most this share of a painting's estimated value

}  // namespace

Game::Game(const NewGame& msg)
    : seat_(msg.seat),
      players_(msg.players),
      n_artists_(static_cast<int>(msg.artists.size())),
      cards_(msg.cards),
      per_artist_(msg.artists.size(), 0),
      gone_(msg.artists.size(), 0)
{
    for (const Card& c : cards_)
        if (c.artist >= 0 && c.artist < n_artists_) per_artist_[static_cast<size_t>(c.artist)] += 1;
}

void Game::seen_event(const Event& event)
{
    if (event.type == "round_ended")
        for (size_t a = 0; a < event.counts.size() && a < gone_.size(); a++) gone_[a] += event.counts[a];
}

int Game::artist_of(int card) const
{
    const int artist = cards_.at(static_cast<size_t>(card)).artist;
    if (artist < 0 || artist >= n_artists_) throw std::out_of_range("card of no known artist");
    return artist;
}

int Game::type_rank(int card) const
{
    static const char* const order[] = {"open", "hidden", "once-around", "fixed-price", "double"};
    const std::string& type = cards_.at(static_cast<size_t>(card)).type;
    for (int i = 0; i < 5; i++)
        if (type == order[i]) return i;
    return 5;
}

// ------------------------------------------------------------------ valuation

// Estimated sale value of one painting of each artist at the end of this round.
std::vector<double> Game::values(const View& view) const
{
    const int n = n_artists_;
    const std::vector<int>& played = view.played;
    if (static_cast<int>(played.size()) != n) throw std::runtime_error("played has the wrong length");
    std::vector<int> mine(static_cast<size_t>(n), 0);
    for (int c : view.hand) mine[static_cast<size_t>(artist_of(c))] += 1;
    const int others_cards = std::accumulate(view.hand_sizes.begin(), view.hand_sizes.end(), 0)
                             - static_cast<int>(view.hand.size()) + view.mystery_size;
    std::vector<int> unseen(static_cast<size_t>(n));
    int total_unseen = 0;
    for (size_t a = 0; a < unseen.size(); a++) {
        unseen[a] = std::max(0, per_artist_[a] - gone_[a] - played[a] - mine[a]);
        total_unseen += unseen[a];
    }
    if (total_unseen == 0) total_unseen = 1;
    const double progress = n > 0 ? *std::max_element(played.begin(), played.end()) / 5.0 : 0.0;
    // Projected count at round end: what is down, part of my hand, part of the rest.
    std::vector<double> projected(static_cast<size_t>(n));
    for (size_t a = 0; a < projected.size(); a++)
        projected[a] = played[a] + 0.45 * mine[a] + 0.35 * others_cards * unseen[a] / total_unseen
                       + 0.001 * (n - static_cast<int>(a));  // ties go to the artist further left
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return projected[static_cast<size_t>(x)] > projected[static_cast<size_t>(y)]; });
    std::vector<int> earlier(static_cast<size_t>(n), 0);  // tiles of earlier rounds
    for (int r = 0; r < view.round - 1 && r < static_cast<int>(view.tiles.size()); r++)
        for (size_t a = 0; a < earlier.size(); a++) earlier[a] += view.tiles[static_cast<size_t>(r)].at(a);
    std::vector<double> out(static_cast<size_t>(n), 0.0);
    for (int place = 0; place < n && place < 4; place++) {
        const size_t a = static_cast<size_t>(order[static_cast<size_t>(place)]);
        if (place < 3) {
            const double gap = n > 3 ? projected[a] - projected[static_cast<size_t>(order[3])] : 2.0;
            const double sure = std::min(1.0, 0.45 + 0.5 * progress + 0.15 * gap);
            out[a] = (TILES[place] + earlier[a]) * sure;
        } else {
            out[a] = (10 + earlier[a]) * 0.15 * (1 - progress);
        }
    }
    return out;
}

double Game::lot_value(const View& view, const std::vector<int>& cards) const
{
    const std::vector<double> vals = values(view);
    double sum = 0;
    for (int c : cards) sum += vals[static_cast<size_t>(artist_of(c))];
    return sum;
}

// ------------------------------------------------------------------ decisions

Reply Game::decide(const Request& request) const
{
    const std::string& kind = request.decision;
    const View& view = request.view;
    const Legal& legal = request.legal;
    const int me = seat_;
    if (kind == "play") return Reply::with_card("play", choose_card(view, legal.cards));
    if (kind == "offer") {
        if (!view.double_card || legal.cards.empty()) return Reply::pass();
        // Adding makes me the auctioneer of both cards and earns me the proceeds.
        int best = legal.cards[0];
        for (int c : legal.cards)
            if (type_rank(c) < type_rank(best)) best = c;
        const Double& dbl = *view.double_card;
        if (dbl.seat == me || values(view)[static_cast<size_t>(artist_of(dbl.card))] > 4)
            return Reply::with_card("offer", best);
        return Reply::pass();
    }
    if (kind == "mystery") return Reply::pass();  // leave the mystery hand alone
    if (!view.auction) throw std::runtime_error("no auction in the view of a " + kind + " request");
    const Auction& auction = *view.auction;
    const double value = lot_value(view, auction.cards);
    const bool mine = auction.auctioneer == me;  // in my own auction I pay the bank
    if (kind == "bid") {
        const double limit = value * (MARGIN - (mine ? 0.25 : 0.0));
        if (legal.min <= limit) {
            const int step = auction.type == "open" ? 1 : std::max(1, static_cast<int>((limit - legal.min) / 2));
            return Reply::with_amount("bid", std::min(legal.max, legal.min + step - 1));
        }
        return Reply::pass();
    }
    if (kind == "hidden_bid") {
        const int amount = static_cast<int>(value * (mine ? 0.55 : 0.65));
        return Reply::with_amount("bid", std::max(0, std::min(legal.max, amount)));
    }
    if (kind == "price") {
        const int amount = static_cast<int>(value * 0.75);
        return Reply::with_amount("price", std::max(legal.min, std::min(legal.max, amount)));
    }
    if (kind == "buy") return legal.price <= value * MARGIN ? Reply{"buy", {}, {}} : Reply::pass();
    return Reply::pass();  // a decision this bot does not know
}

// The card to auction: the one whose auction should pay most, pushing artists I hold.
int Game::choose_card(const View& view, const std::vector<int>& cards) const
{
    if (cards.empty()) throw std::runtime_error("no card to play");
    const std::vector<double> vals = values(view);
    const std::vector<int>& played = view.played;
    std::vector<int> in_hand(static_cast<size_t>(n_artists_), 0);
    for (int c : view.hand) in_hand[static_cast<size_t>(artist_of(c))] += 1;

    auto score = [&](int card) {
        const size_t artist = static_cast<size_t>(artist_of(card));
        if (played[artist] >= ROUND_ENDING_COUNT - 1) {  // this card ends the round, unsold
            double mine_now = 0, theirs = 0;
            for (size_t s = 0; s < view.bought.size(); s++)
                for (int c : view.bought[s]) {
                    const double v = vals[static_cast<size_t>(artist_of(c))];
                    if (static_cast<int>(s) == seat_) mine_now += v; else theirs += v;
                }
            return mine_now - theirs / std::max(1, players_ - 1) - 5;
        }
        double s = vals[artist] * 0.6;  // what others should pay me
        if (cards_.at(static_cast<size_t>(card)).type == "double") {
            const int partner = in_hand[artist] - 1;
            s = partner > 0 ? s * 1.8 : s * 0.3;
        }
        s += 0.5 * in_hand[artist];
        return s;
    };

    int best = cards[0];
    double best_score = score(best);
    for (int c : cards) {  // the best score; of equals, the lowest card id
        const double s = score(c);
        if (s > best_score || (s == best_score && c < best)) {
            best = c;
            best_score = s;
        }
    }
    return best;
}

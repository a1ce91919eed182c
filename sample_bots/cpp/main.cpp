// sample_cpp: a Modern Art bot in C++17, speaking protocol v1 (../../protocol/README.md).
//
// It reads one JSON object per line from stdin and answers every `request` with one JSON line
// on stdout, flushed at once. Nothing else goes to stdout: the log goes to stderr. It plays
// any number of games in one process and exits on `goodbye` or at end of input. The strategy
// is in strategy.cpp; this file is the rest: the input loop, and the JSON (nlohmann::json) it
// reads into protocol.hpp's types and writes each Reply back to. It is the only file that
// includes <nlohmann/json.hpp>, a header that takes seconds to compile: the Makefile compiles
// each file on its own, so a change to the strategy recompiles strategy.cpp alone.
//
// Unknown fields are ignored, so the bot keeps working when the referee adds some; a field the
// protocol always sends that is missing is an error naming it (`no field "min"`), which the
// input loop logs to stderr, never a silent 0.
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cxxabi.h>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol.hpp"
#include "strategy.hpp"

namespace {

using json = nlohmann::json;

const char* const BOT_NAME = "sample_cpp";

// A field the protocol always sends is missing: its message names it (`legal: no field "min"`).
struct MissingField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ------------------------------------------------------------------ reading
// Each throws when a field the protocol always sends is missing (a MissingField) or mistyped
// (a json::exception); only new_game's `seed` may be absent (0).

// obj[key], which the protocol always sends: an error naming it when it is missing.
const json& field(const json& obj, const char* key)
{
    if (!obj.is_object()) throw MissingField(std::string("no field \"") + key + "\" in a " + obj.type_name());
    const auto found = obj.find(key);
    if (found == obj.end()) throw MissingField(std::string("no field \"") + key + "\"");
    return *found;
}

std::optional<int> optional_int(const json& value)
{
    if (value.is_null()) return std::nullopt;
    return value.get<int>();
}

Auction read_auction(const json& a)
{
    Auction out;
    out.cards = field(a, "cards").get<std::vector<int>>();
    out.type = field(a, "type").get<std::string>();
    out.auctioneer = field(a, "auctioneer").get<int>();
    out.high_bid = field(a, "high_bid").get<int>();
    out.high_bidder = optional_int(field(a, "high_bidder"));
    out.price = optional_int(field(a, "price"));
    return out;
}

View read_view(const json& v)
{
    View out;
    out.seat = field(v, "seat").get<int>();
    out.round = field(v, "round").get<int>();
    for (const json& m : field(v, "money")) out.money.push_back(optional_int(m));
    out.hand = field(v, "hand").get<std::vector<int>>();
    out.hand_sizes = field(v, "hand_sizes").get<std::vector<int>>();
    out.mystery_size = field(v, "mystery_size").get<int>();
    out.deck_size = field(v, "deck_size").get<int>();
    out.tiles = field(v, "tiles").get<std::vector<std::vector<int>>>();
    out.played = field(v, "played").get<std::vector<int>>();
    out.bought = field(v, "bought").get<std::vector<std::vector<int>>>();
    out.unsold = field(v, "unsold").get<std::vector<int>>();
    const json& auction = field(v, "auction");
    if (!auction.is_null()) out.auction = read_auction(auction);
    const json& dbl = field(v, "double");
    if (!dbl.is_null()) out.double_card = Double{field(dbl, "seat").get<int>(), field(dbl, "card").get<int>()};
    out.turn = field(v, "turn").get<int>();
    return out;
}

// `legal` of a `decision`: the fields that decision has (protocol section 4), each required;
// the others stay empty or 0.
Legal read_legal(const json& l, const std::string& decision)
{
    Legal out;
    out.can_pass = field(l, "can_pass").get<bool>();
    if (decision == "play" || decision == "offer") {
        out.cards = field(l, "cards").get<std::vector<int>>();
    } else if (decision == "bid" || decision == "hidden_bid" || decision == "price") {
        out.min = field(l, "min").get<int>();
        out.max = field(l, "max").get<int>();
    } else if (decision == "buy") {
        out.price = field(l, "price").get<int>();
    }  // mystery: can_pass alone
    return out;
}

NewGame read_new_game(const json& msg)
{
    NewGame out;
    out.game_id = field(msg, "game_id").get<std::string>();
    out.seat = field(msg, "seat").get<int>();
    out.players = field(msg, "players").get<int>();
    const json& edition = field(msg, "edition");
    out.artists = field(edition, "artists").get<std::vector<std::string>>();
    for (const json& c : field(edition, "cards")) {
        const int id = field(c, "id").get<int>();
        if (id < 0) continue;
        if (static_cast<size_t>(id) >= out.cards.size()) out.cards.resize(static_cast<size_t>(id) + 1);
        out.cards[static_cast<size_t>(id)] = Card{field(c, "artist").get<int>(), field(c, "type").get<std::string>()};
    }
    out.variants = field(msg, "variants").get<std::vector<std::string>>();
    out.seed = msg.value("seed", std::uint64_t{0});  // documented as 0 from a referee that sends none
    return out;
}

Request read_request(const json& msg)
{
    Request out;
    field(msg, "id");  // required, though on_request copies it into the reply itself
    out.decision = field(msg, "decision").get<std::string>();
    out.view = read_view(field(msg, "view"));
    const json& legal = field(msg, "legal");
    try {
        out.legal = read_legal(legal, out.decision);
    } catch (const std::exception& e) {
        throw MissingField(std::string("legal: ") + e.what());
    }
    return out;
}

// An event: its type's fields (protocol section 5), each required.
Event read_event(const json& e)
{
    Event out;
    out.type = field(e, "type").get<std::string>();
    const std::string& type = out.type;
    const auto number = [&](const char* key) { return field(e, key).get<int>(); };
    const auto numbers = [&](const char* key) { return field(e, key).get<std::vector<int>>(); };
    if (type == "round_started") {
        out.round = number("round");
        out.first_seat = number("first_seat");
        out.hand_sizes = numbers("hand_sizes");
        out.mystery_size = number("mystery_size");
    } else if (type == "cards_dealt") {
        out.seat = number("seat");
        out.cards = numbers("cards");
    } else if (type == "card_played" || type == "mystery_revealed") {
        out.seat = number("seat");
        out.card = number("card");
        out.count = number("count");
    } else if (type == "second_card_declined" || type == "mystery_declined") {
        out.seat = number("seat");
    } else if (type == "auction_started") {
        out.auctioneer = number("auctioneer");
        out.cards = numbers("cards");
        out.auction_type = field(e, "auction_type").get<std::string>();
    } else if (type == "bid") {
        out.seat = number("seat");
        out.amount = number("amount");
    } else if (type == "pass") {
        out.seat = number("seat");
        out.forced = field(e, "forced").get<bool>();
    } else if (type == "price_set") {
        out.seat = number("seat");
        out.price = number("price");
    } else if (type == "hidden_bids_revealed") {
        out.amounts = numbers("amounts");
    } else if (type == "auction_won") {
        out.winner = number("winner");
        out.cards = numbers("cards");
        out.price = number("price");
        out.auctioneer = number("auctioneer");
    } else if (type == "payment") {
        out.payer = optional_int(field(e, "payer"));
        out.payee = optional_int(field(e, "payee"));
        out.amount = number("amount");
    } else if (type == "round_ended") {
        out.round = number("round");
        out.ender = number("ender");
        out.counts = numbers("counts");
        out.ranking = numbers("ranking");
        out.tiles = numbers("tiles");
        out.values = numbers("values");
        out.unsold = numbers("unsold");
    } else if (type == "paintings_sold") {
        out.seat = number("seat");
        out.cards = numbers("cards");
        out.amount = number("amount");
    } else if (type == "game_ended") {
        out.money = numbers("money");
        out.ranks = numbers("ranks");
        out.winners = numbers("winners");
    }  // a type this bot does not know: its type alone
    return out;
}

// ------------------------------------------------------------------ writing
// Each one line of JSON, without its newline.

std::string hello_line(const std::string& name)
{
    nlohmann::ordered_json hello = {{"type", "hello"}, {"name", name}, {"protocol", 1}};
    return hello.dump();
}

// The reply to request `id`, its id copied as it came.
std::string reply_line(const json& id, const Reply& reply)
{
    nlohmann::ordered_json out;
    out["id"] = id;
    out["action"] = reply.action;
    if (reply.card) out["card"] = *reply.card;
    if (reply.amount) out["amount"] = *reply.amount;
    return out.dump();  // compact: one line, integers as integers
}

// The referee's own default for a decision (protocol section 8), built from `legal` alone:
// what to send when the strategy fails.
Reply fallback(const std::string& decision, const json& legal)
{
    if (decision == "play") {
        const json cards = legal.is_object() ? legal.value("cards", json::array()) : json::array();
        if (!cards.empty() && cards[0].is_number_integer()) return Reply::with_card("play", cards[0].get<int>());
        return Reply::pass();
    }
    if (decision == "hidden_bid") return Reply::with_amount("bid", 0);
    if (decision == "price") {
        const json min = legal.is_object() ? legal.value("min", json(0)) : json(0);
        return Reply::with_amount("price", min.is_number_integer() ? min.get<int>() : 0);
    }
    return Reply::pass();
}

// ------------------------------------------------------------------ the input loop

// One protocol line to stdout, flushed: an unflushed reply is a reply that never arrived.
void send(const std::string& line)
{
    std::cout << line << '\n' << std::flush;
}

// The type of the exception being handled, as the code names it ("std::out_of_range").
std::string exception_type()
{
    const std::type_info* type = abi::__cxa_current_exception_type();
    if (type == nullptr) return "unknown exception";
    int status = 0;
    char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
    std::string readable = status == 0 && name != nullptr ? name : type->name();
    std::free(name);
    return readable;
}

// The exception being handled, in one line: a field missing or mistyped by its message alone
// (`legal: no field "min"`), a bug by its type and message (`std::out_of_range:
// vector::_M_range_check: ...`). C++ keeps no place with an exception: to see where one is
// thrown, run the bot in gdb with `catch throw` (README.md). Call it in a catch block only.
std::string problem()
{
    try {
        throw;
    } catch (const MissingField& e) {
        return e.what();
    } catch (const json::exception& e) {  // its message names it: [json.exception.type_error.302]
        return e.what();
    } catch (const std::exception& e) {
        return exception_type() + ": " + e.what();
    } catch (...) {  // not a std::exception (a thrown int or string): its type alone
        return "an exception of type " + exception_type();
    }
}

void on_request(const json& msg, const std::optional<Game>& game)
{
    const json id = msg.value("id", json());
    const std::string decision = msg.value("decision", std::string());
    Reply reply;
    try {
        if (!game) throw MissingField("no game: its new_game was missing or unreadable");
        reply = game->decide(read_request(msg));
    } catch (...) {  // never let a bug in the strategy forfeit the move
        std::cerr << BOT_NAME << ": request " << id.dump() << " (" << decision << "): " << problem()
                  << "; falling back to the default" << std::endl;
        reply = fallback(decision, msg.value("legal", json()));
    }
    send(reply_line(id, reply));
}

// An event for the strategy to track. An exception there (a bug in the tracking, a field
// missing) is logged with the event's type and the event ignored: it costs that event, not a
// crash that retires the bot for the game.
void on_event(const json& msg, Game& game)
{
    try {
        game.seen_event(read_event(msg.at("event")));
    } catch (...) {
        std::string type;
        const auto event = msg.find("event");
        if (event != msg.end() && event->is_object()) {
            const auto found = event->find("type");
            if (found != event->end() && found->is_string()) type = found->get<std::string>() + ": ";
        }
        std::cerr << BOT_NAME << ": cannot read an event (" << type << problem() << "), ignored" << std::endl;
    }
}

// A new game: its Game, or none when new_game cannot be read or the strategy's set-up throws
// (that game's requests then get the default answers).
void on_new_game(const json& msg, std::optional<Game>& game)
{
    game.reset();  // until this one is read: a request now gets the default answer
    try {
        game.emplace(read_new_game(msg));
    } catch (...) {
        game.reset();
        std::cerr << BOT_NAME << ": cannot read new_game (" << problem() << "); answering the defaults"
                  << std::endl;
        return;
    }
    std::cerr << BOT_NAME << ": game " << msg.value("game_id", std::string("?")) << ", seat "
              << msg.value("seat", -1) << std::endl;
}

}  // namespace

int main()
{
    std::signal(SIGPIPE, SIG_IGN);  // if the referee has gone, a failed write ends the loop
    std::ios::sync_with_stdio(false);
    std::optional<Game> game;
    std::string line;
    while (std::getline(std::cin, line) && std::cout) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const json msg = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (msg.is_discarded() || !msg.is_object()) {
            std::cerr << BOT_NAME << ": not a JSON object, ignored: " << line.substr(0, 80) << std::endl;
            continue;
        }
        const std::string type = msg.value("type", std::string());
        try {
            if (type == "hello") {
                send(hello_line(BOT_NAME));
            } else if (type == "new_game") {
                on_new_game(msg, game);
            } else if (type == "event") {
                if (game) on_event(msg, *game);
            } else if (type == "request") {
                on_request(msg, game);
            } else if (type == "warning") {
                std::cerr << BOT_NAME << ": warning for request " << msg.value("id", json()).dump() << ": "
                          << msg.value("fault", std::string("?")) << ": " << msg.value("reason", std::string("?"))
                          << std::endl;
            } else if (type == "game_end") {
                std::cerr << BOT_NAME << ": game over, ranks " << msg.value("ranks", json()).dump() << std::endl;
                game.reset();
            } else if (type == "goodbye") {
                break;
            }
            // anything else: a message type this bot does not know, ignored
        } catch (const std::exception& e) {
            std::cerr << BOT_NAME << ": cannot read a " << type << " message (" << e.what() << "), ignored"
                      << std::endl;
        }
    }
    return 0;
}

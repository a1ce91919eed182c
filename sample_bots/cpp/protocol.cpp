// JSON to the protocol's types and back, with nlohmann::json. Unknown fields are ignored, so
// the bot keeps working when the referee adds some; a field the protocol always sends that is
// missing is an error naming it (`no field "min"`), which the input loop logs to stderr, never
// a silent 0.
#include "protocol.hpp"

#include <stdexcept>

namespace {

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

}  // namespace

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
    out.id = field(msg, "id");
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

std::string hello_line(const std::string& name)
{
    nlohmann::ordered_json hello = {{"type", "hello"}, {"name", name}, {"protocol", 1}};
    return hello.dump();
}

std::string reply_line(const json& id, const Reply& reply)
{
    nlohmann::ordered_json out;
    out["id"] = id;
    out["action"] = reply.action;
    if (reply.card) out["card"] = *reply.card;
    if (reply.amount) out["amount"] = *reply.amount;
    return out.dump();  // compact: one line, integers as integers
}

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

// JSON to the protocol's types and back, with nlohmann::json. Unknown fields are ignored, so
// the bot keeps working when the referee adds some.
#include "protocol.hpp"

namespace {

std::optional<int> optional_int(const json& value)
{
    if (value.is_null()) return std::nullopt;
    return value.get<int>();
}

Auction read_auction(const json& a)
{
    Auction out;
    out.cards = a.at("cards").get<std::vector<int>>();
    out.type = a.at("type").get<std::string>();
    out.auctioneer = a.at("auctioneer").get<int>();
    out.high_bid = a.value("high_bid", 0);
    out.high_bidder = optional_int(a.value("high_bidder", json()));
    out.price = optional_int(a.value("price", json()));
    return out;
}

View read_view(const json& v)
{
    View out;
    out.seat = v.at("seat").get<int>();
    out.round = v.at("round").get<int>();
    for (const json& m : v.at("money")) out.money.push_back(optional_int(m));
    out.hand = v.at("hand").get<std::vector<int>>();
    out.hand_sizes = v.at("hand_sizes").get<std::vector<int>>();
    out.mystery_size = v.value("mystery_size", 0);
    out.deck_size = v.value("deck_size", 0);
    out.tiles = v.at("tiles").get<std::vector<std::vector<int>>>();
    out.played = v.at("played").get<std::vector<int>>();
    out.bought = v.at("bought").get<std::vector<std::vector<int>>>();
    out.unsold = v.value("unsold", std::vector<int>{});
    const json auction = v.value("auction", json());
    if (!auction.is_null()) out.auction = read_auction(auction);
    const json dbl = v.value("double", json());
    if (!dbl.is_null()) out.double_card = Double{dbl.at("seat").get<int>(), dbl.at("card").get<int>()};
    out.turn = v.value("turn", 0);
    return out;
}

Legal read_legal(const json& l)
{
    Legal out;
    out.cards = l.value("cards", std::vector<int>{});
    out.min = l.value("min", 0);
    out.max = l.value("max", 0);
    out.price = l.value("price", 0);
    out.can_pass = l.value("can_pass", false);
    return out;
}

}  // namespace

NewGame read_new_game(const json& msg)
{
    NewGame out;
    out.game_id = msg.value("game_id", std::string());
    out.seat = msg.at("seat").get<int>();
    out.players = msg.at("players").get<int>();
    const json& edition = msg.at("edition");
    out.artists = edition.at("artists").get<std::vector<std::string>>();
    for (const json& c : edition.at("cards")) {
        const int id = c.at("id").get<int>();
        if (id < 0) continue;
        if (static_cast<size_t>(id) >= out.cards.size()) out.cards.resize(static_cast<size_t>(id) + 1);
        out.cards[static_cast<size_t>(id)] = Card{c.at("artist").get<int>(), c.at("type").get<std::string>()};
    }
    out.variants = msg.value("variants", std::vector<std::string>{});
    out.seed = msg.value("seed", std::uint64_t{0});
    return out;
}

Request read_request(const json& msg)
{
    Request out;
    out.id = msg.at("id");
    out.decision = msg.at("decision").get<std::string>();
    out.view = read_view(msg.at("view"));
    out.legal = read_legal(msg.at("legal"));
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

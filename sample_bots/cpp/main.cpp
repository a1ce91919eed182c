// sample_cpp: a Modern Art bot in C++17, speaking protocol v1 (../../protocol/README.md).
//
// It reads one JSON object per line from stdin and answers every `request` with one JSON line
// on stdout, flushed at once. Nothing else goes to stdout: the log goes to stderr. It plays
// any number of games in one process and exits on `goodbye` or at end of input. The strategy
// is in strategy.cpp; this file is only the input loop.
#include <csignal>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "protocol.hpp"
#include "strategy.hpp"

namespace {

const char* const BOT_NAME = "sample_cpp";

// One protocol line to stdout, flushed: an unflushed reply is a reply that never arrived.
void send(const std::string& line)
{
    std::cout << line << '\n' << std::flush;
}

void on_request(const json& msg, const std::optional<Game>& game)
{
    const json id = msg.value("id", json());
    const std::string decision = msg.value("decision", std::string());
    Reply reply;
    try {
        if (!game) throw std::runtime_error("a request before any new_game");
        reply = game->decide(read_request(msg));
    } catch (const std::exception& e) {  // never let a bug in the strategy forfeit the move
        std::cerr << BOT_NAME << ": request " << id.dump() << " (" << decision << "): " << e.what()
                  << "; falling back to the default" << std::endl;
        reply = fallback(decision, msg.value("legal", json()));
    }
    send(reply_line(id, reply));
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
                game.reset();  // until this one is read: a request now gets the default answer
                game.emplace(read_new_game(msg));
                std::cerr << BOT_NAME << ": game " << msg.value("game_id", std::string("?")) << ", seat "
                          << msg.value("seat", -1) << std::endl;
            } else if (type == "event") {
                if (game) game->seen_event(msg.at("event"));
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

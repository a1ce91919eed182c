// sample_cpp: a Modern Art bot in C++17, speaking protocol v1 (../../protocol/README.md).
//
// It reads one JSON object per line from stdin and answers every `request` with one JSON line
// on stdout, flushed at once. Nothing else goes to stdout: the log goes to stderr. It plays
// any number of games in one process and exits on `goodbye` or at end of input. The strategy
// is in strategy.cpp; this file is only the input loop.
#include <csignal>
#include <cstdlib>
#include <cxxabi.h>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "protocol.hpp"
#include "strategy.hpp"

namespace {

const char* const BOT_NAME = "sample_cpp";

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
        game.seen_event(msg.at("event"));
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

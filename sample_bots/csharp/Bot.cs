// A Modern Art bot for the referee's protocol version 1, in C# run by Mono.
//
// This file speaks the protocol: it reads one JSON message per line from stdin, answers
// hello and every request on stdout (one line each, flushed at once), and logs to stderr.
// The strategy is in Strategy.cs; the JSON reader and writer in Json.cs.
//
// Build: mcs -out:bot.exe Bot.cs Protocol.cs Strategy.cs Json.cs    Run: mono bot.exe

using System;
using System.IO;
using System.Text;

public static class Bot
{
    const string Name = "csharp_baseline";

    static TextWriter stdout;
    static Game game;

    public static int Main()
    {
        // Protocol lines go to the real stdout (UTF-8, no byte-order mark, "\n" line ends);
        // a stray Console.WriteLine goes to stderr instead of corrupting the protocol.
        stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { NewLine = "\n" };
        Console.SetOut(Console.Error);
        // ReadLine has no line length limit: new_game is several KiB.
        var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        string line;
        while ((line = stdin.ReadLine()) != null)
        {
            if (!Handle(line)) break;
        }
        return 0;
    }

    static void Log(string text)
    {
        Console.Error.WriteLine(Name + ": " + text);
    }

    /// <summary>Writes one protocol line and flushes it: an unflushed reply never arrives.
    /// If the referee has gone (a write error), the bot just ends.</summary>
    static void Send(string line)
    {
        try
        {
            stdout.Write(line + "\n");
            stdout.Flush();
        }
        catch (IOException)
        {
            Environment.Exit(0);
        }
    }

    /// <summary>Acts on one line; false once the session is over (goodbye).</summary>
    static bool Handle(string line)
    {
        if (line.Trim().Length == 0) return true;
        object msg;
        try
        {
            msg = Json.Parse(line);
        }
        catch (Exception e)
        {
            Log("not JSON, ignored (" + e.Message + ")");
            return true;
        }
        switch (Json.Str(msg, "type"))
        {
            case "hello":
                Send("{\"type\":\"hello\",\"name\":" + Json.Quote(Name) + ",\"protocol\":1}");
                break;
            case "new_game":
                game = new Game(msg);
                break;
            case "event":
                if (game != null) game.SeenEvent(Json.Get(msg, "event"));
                break;
            case "request":
                long id = Json.Long(msg, "id");
                Send(Answer(msg).ToLine(id));
                break;
            case "warning":
                Log("warning for request " + Json.Long(msg, "id") + ": " + Json.Str(msg, "fault") + ": " + Json.Str(msg, "reason"));
                break;
            case "game_end":
                Log("game over, ranks [" + string.Join(",", Json.Ints(Json.Get(msg, "ranks"))) + "]");
                break;
            case "goodbye":
                return false;
        }
        return true;
    }

    /// <summary>The strategy's answer, or the decision's default if the strategy fails: a bug
    /// in the strategy then costs a move, not a fault.</summary>
    static Reply Answer(object msg)
    {
        string decision = Json.Str(msg, "decision", "");
        Legal legal = Legal.From(Json.Get(msg, "legal"));
        try
        {
            if (game == null) throw new InvalidOperationException("a request before new_game");
            return game.Decide(decision, View.From(Json.Get(msg, "view")), legal);
        }
        catch (Exception e)
        {
            // the whole exception, its stack trace too: where in your code it failed
            Log("request " + Json.Long(msg, "id") + ": " + e + "; falling back to the default");
            return Reply.Fallback(decision, legal);
        }
    }
}

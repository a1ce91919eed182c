// A Modern Art bot for the referee's protocol version 1, in C# run by Mono.
//
// This file speaks the protocol: it reads one JSON message per line from stdin, answers
// hello and every request on stdout (one line each, flushed at once), and logs to stderr.
// The strategy is in Strategy.cs; the JSON reader and writer in Json.cs.
//
// Build: mcs -debug -out:bot.exe Bot.cs Protocol.cs Strategy.cs Json.cs
// Run: mono --debug bot.exe  (-debug and --debug: file and line in stack traces)

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
                game = null; // until this one is read: its requests get the default answers
                try
                {
                    game = new Game(msg);
                }
                catch (Exception e) // a field missing, or a bug in the strategy's set-up
                {
                    Log("cannot read new_game (" + Problem(e) + "); answering the defaults");
                    Trace(e);
                }
                break;
            case "event":
                if (game == null) break;
                object ev = null;
                try
                {
                    ev = Json.Need(msg, "event");
                    game.SeenEvent(ev);
                }
                catch (Exception e) // a field missing, or a bug in the strategy's tracking
                {
                    // The bot plays on with that event untracked, rather than crash and be
                    // retired for the game.
                    string type = Json.Str(ev, "type");
                    Log("cannot read an event (" + (type != null ? type + ": " : "") + Problem(e) + "), ignored");
                    Trace(e);
                }
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
                game = null;
                break;
            case "goodbye":
                return false;
        }
        return true;
    }

    /// <summary>The strategy's answer, or the decision's default if the request cannot be
    /// read (a field missing) or the strategy fails: a bug in the strategy then costs a move,
    /// not a fault.</summary>
    static Reply Answer(object msg)
    {
        string decision = Json.Str(msg, "decision", "");
        string asked = "request " + Json.Long(msg, "id") + " (" + decision + "): ";
        View view;
        Legal legal;
        try
        {
            view = View.From(Json.Need(msg, "view"));
            legal = Legal.From(Json.Need(msg, "legal"), decision);
        }
        catch (BadMessage e)
        {
            Log(asked + Problem(e) + "; falling back to the default");
            return Reply.Fallback(decision, Legal.Lenient(Json.Get(msg, "legal")));
        }
        if (game == null)
        {
            Log(asked + "no game: its new_game was missing or unreadable; falling back to the default");
            return Reply.Fallback(decision, legal);
        }
        try
        {
            return game.Decide(decision, view, legal);
        }
        catch (Exception e)
        {
            Log(asked + Problem(e) + "; falling back to the default");
            Trace(e);
            return Reply.Fallback(decision, legal);
        }
    }

    /// <summary>An exception in one line, with the place in this bot's code it came from:
    /// "IndexOutOfRangeException: Index was outside the bounds of the array. at
    /// Strategy.cs:159 in Game.Decide"; a BadMessage (a field missing) without its type:
    /// "legal: no field "min" at Protocol.cs:117 in Legal.From".</summary>
    static string Problem(Exception e)
    {
        return (e is BadMessage ? "" : e.GetType().Name + ": ") + e.Message + Where(e);
    }

    /// <summary>After the line of a bug (not a missing field), its stack trace, to stderr:
    /// the way to it.</summary>
    static void Trace(Exception e)
    {
        if (!(e is BadMessage)) Console.Error.WriteLine(e.StackTrace);
    }

    /// <summary>" at Strategy.cs:150 in Game.Decide": the first frame of the exception's stack
    /// trace (its innermost: a BadMessage placed as "view: ..." keeps the one it was read at)
    /// in this bot's own code, not the runtime's nor the JSON reader's (a missing field is
    /// looked for where it was asked for: " at Protocol.cs:117 in Legal.From"), the line to look
    /// at; the file and line only when the bot was built with -debug and runs under mono
    /// --debug.</summary>
    static string Where(Exception e)
    {
        while (e.InnerException != null) e = e.InnerException;
        foreach (var frame in new System.Diagnostics.StackTrace(e, true).GetFrames() ?? new System.Diagnostics.StackFrame[0])
        {
            var method = frame.GetMethod();
            if (method == null || method.DeclaringType == null || method.DeclaringType.Assembly != typeof(Bot).Assembly
                || method.DeclaringType == typeof(Json)) continue;
            string file = frame.GetFileName();
            string place = file != null && frame.GetFileLineNumber() > 0
                ? Path.GetFileName(file) + ":" + frame.GetFileLineNumber() + " in " : "";
            string name = method.IsConstructor ? "new " + method.DeclaringType.Name : method.DeclaringType.Name + "." + method.Name;
            return " at " + place + name;
        }
        return "";
    }
}

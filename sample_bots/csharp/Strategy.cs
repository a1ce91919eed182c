// The strategy: a port of sample_bots/python/baseline_bot.py.  It values each artist from
// the table (cards played this round, its own hand, the cards still unseen, the tiles so
// far), bids up to that value less a margin, prices fixed-price lots just under it, adds
// second cards to doubles, and plays the card whose auction should pay it most.  Change
// Decide (and what it calls) to write your own.

using System;
using System.Collections.Generic;

/// <summary>What the bot keeps for one game, from new_game and the events.</summary>
public sealed class Game
{
    static readonly double[] Tiles = { 30, 20, 10 }; // the value tiles of the 1st, 2nd, 3rd artist
    const double Margin = 0.8; // bid at most this share of a painting's estimated value
    /// <summary>Auction types in the order preferred for a double's second card.</summary>
    static readonly string[] TypeOrder = { "open", "hidden", "once-around", "fixed-price", "double" };

    readonly int seat, players;
    readonly int artists; // how many artists this edition has (never assume five)
    readonly Dictionary<int, int> artistOf = new Dictionary<int, int>(); // card id -> artist
    readonly Dictionary<int, string> typeOf = new Dictionary<int, string>(); // card id -> auction type
    readonly int[] perArtist; // cards of each artist in the edition
    readonly int[] gone; // cards of each artist played in earlier rounds

    /// <summary>A game from its new_game message; a BadMessage, naming the field, when it
    /// lacks one the protocol always sends (only seed may be absent).</summary>
    public Game(object newGame)
    {
        Json.NeedStr(newGame, "game_id");
        Json.NeedList(newGame, "variants");
        seat = Json.NeedInt(newGame, "seat");
        players = Json.NeedInt(newGame, "players");
        object edition = Json.Need(newGame, "edition");
        artists = Json.NeedList(edition, "artists").Count;
        perArtist = new int[artists];
        gone = new int[artists];
        foreach (object card in Json.NeedList(edition, "cards"))
        {
            int id = Json.NeedInt(card, "id"), artist = Json.NeedInt(card, "artist");
            if (artist < 0 || artist >= artists) throw new BadMessage("card " + id + " has no artist " + artist);
            artistOf[id] = artist;
            typeOf[id] = Json.NeedStr(card, "type");
            perArtist[artist]++;
        }
    }

    /// <summary>Keeps count of the cards of earlier rounds (round_ended's counts).</summary>
    public void SeenEvent(object ev)
    {
        if (Json.NeedStr(ev, "type") != "round_ended") return;
        int[] counts = Json.Ints(Json.NeedList(ev, "counts"));
        for (int a = 0; a < counts.Length && a < artists; a++) gone[a] += counts[a];
    }

    int ArtistOf(int card)
    {
        int a;
        if (!artistOf.TryGetValue(card, out a)) throw new ArgumentException("card " + card + " is not in the edition");
        return a;
    }

    /// <summary>Estimated sale value of one painting of each artist at this round's end.</summary>
    public double[] Values(View view)
    {
        int n = artists;
        int[] played = view.Played;
        var mine = new int[n];
        foreach (int c in view.Hand) mine[ArtistOf(c)]++;
        int handSizes = 0;
        foreach (int s in view.HandSizes) handSizes += s;
        double othersCards = handSizes - view.Hand.Length + view.MysterySize;
        var unseen = new double[n];
        double totalUnseen = 0;
        int maxPlayed = 0;
        for (int a = 0; a < n; a++)
        {
            unseen[a] = Math.Max(0, perArtist[a] - gone[a] - played[a] - mine[a]);
            totalUnseen += unseen[a];
            maxPlayed = Math.Max(maxPlayed, played[a]);
        }
        if (totalUnseen == 0) totalUnseen = 1;
        double progress = maxPlayed / 5.0;
        // Projected count at round end: what is down, part of my hand, part of the rest.
        var projected = new double[n];
        for (int a = 0; a < n; a++)
            projected[a] = played[a] + 0.45 * mine[a] + 0.35 * othersCards * unseen[a] / totalUnseen
                           + 0.001 * (n - a); // ties go to the artist further left
        // Artists by projected count, highest first; a stable sort keeps equal ones in order.
        var order = new List<int>();
        for (int a = 0; a < n; a++)
        {
            int at = order.Count;
            while (at > 0 && projected[order[at - 1]] < projected[a]) at--;
            order.Insert(at, a);
        }
        var earlier = new double[n];
        for (int r = 0; r < view.Round - 1 && r < view.Tiles.Length; r++)
            for (int a = 0; a < n && a < view.Tiles[r].Length; a++) earlier[a] += view.Tiles[r][a];
        var values = new double[n];
        for (int place = 0; place < n; place++)
        {
            int a = order[place];
            if (place < 3)
            {
                double gap = n > 3 ? projected[a] - projected[order[3]] : 2.0;
                double sure = Math.Min(1.0, 0.45 + 0.5 * progress + 0.15 * gap);
                values[a] = (Tiles[place] + earlier[a]) * sure;
            }
            else if (place == 3)
            {
                values[a] = (10 + earlier[a]) * 0.15 * (1 - progress);
            }
        }
        return values;
    }

    double LotValue(View view, int[] cards)
    {
        double[] values = Values(view);
        double total = 0;
        foreach (int c in cards) total += values[ArtistOf(c)];
        return total;
    }

    /// <summary>The answer to one request: decision is its kind, legal what it allows.</summary>
    public Reply Decide(string decision, View view, Legal legal)
    {
        int me = seat;
        if (decision == "play") return Reply.WithCard("play", ChooseCard(view, legal.Cards));
        if (decision == "offer")
        {
            if (view.Double == null || legal.Cards.Length == 0) return Reply.Pass();
            // Adding makes me the auctioneer of both cards and earns me the proceeds (R4.5).
            int best = legal.Cards[0];
            foreach (int c in legal.Cards)
                if (TypeRank(c) < TypeRank(best)) best = c;
            if (view.Double.Seat == me || Values(view)[ArtistOf(view.Double.Card)] > 4)
                return Reply.WithCard("offer", best);
            return Reply.Pass();
        }
        if (decision == "mystery") return Reply.Pass(); // leave the mystery hand alone
        Auction auction = view.Auction;
        if (auction == null) throw new InvalidOperationException("a " + decision + " request without an auction");
        double value = LotValue(view, auction.Cards);
        bool mine = auction.Auctioneer == me; // then I would pay the bank
        switch (decision)
        {
            case "bid":
                double limit = value * (Margin - (mine ? 0.25 : 0.0));
                if (legal.Min <= limit)
                {
                    int step = auction.Type == "open" ? 1 : Math.Max(1, (int)((limit - legal.Min) / 2));
                    return Reply.WithAmount("bid", Math.Min(legal.Max, legal.Min + step - 1));
                }
                return Reply.Pass();
            case "hidden_bid":
                return Reply.WithAmount("bid", Clamp((int)(value * (mine ? 0.55 : 0.65)), legal.Min, legal.Max));
            case "price":
                return Reply.WithAmount("price", Clamp((int)(value * 0.75), legal.Min, legal.Max));
            case "buy":
                return legal.Price <= value * Margin ? Reply.Buy() : Reply.Pass();
        }
        Console.Error.WriteLine("unknown decision " + decision + ", passing");
        return Reply.Pass();
    }

    static int Clamp(int x, int lo, int hi) { return Math.Max(lo, Math.Min(hi, x)); }

    int TypeRank(int card)
    {
        string type;
        int rank = typeOf.TryGetValue(card, out type) ? Array.IndexOf(TypeOrder, type) : -1;
        return rank < 0 ? TypeOrder.Length : rank;
    }

    /// <summary>The card whose auction should pay most; ties go to the lowest id.</summary>
    int ChooseCard(View view, int[] cards)
    {
        double[] values = Values(view);
        var inHand = new int[artists];
        foreach (int c in view.Hand) inHand[ArtistOf(c)]++;
        int best = cards[0];
        double bestScore = double.NegativeInfinity;
        foreach (int card in cards)
        {
            double s = Score(view, values, inHand, card);
            if (s > bestScore || (s == bestScore && card < best))
            {
                best = card;
                bestScore = s;
            }
        }
        return best;
    }

    double Score(View view, double[] values, int[] inHand, int card)
    {
        int artist = ArtistOf(card);
        if (view.Played[artist] >= 4) // this card ends the round, unsold
        {
            double mineNow = 0, theirs = 0;
            for (int s = 0; s < view.Bought.Length; s++)
                foreach (int c in view.Bought[s])
                {
                    if (s == seat) mineNow += values[ArtistOf(c)];
                    else theirs += values[ArtistOf(c)];
                }
            return mineNow - theirs / Math.Max(1, players - 1) - 5;
        }
        double score = values[artist] * 0.6; // what others should pay me
        string type;
        if (typeOf.TryGetValue(card, out type) && type == "double")
            score *= inHand[artist] - 1 > 0 ? 1.8 : 0.3; // a second card to add to it myself?
        return score + 0.5 * inHand[artist]; // push artists I hold
    }
}

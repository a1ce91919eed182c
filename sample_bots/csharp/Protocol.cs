// The messages of protocol version 1 (protocol/README.md) that the strategy reads, as typed
// classes built from Json.Parse's tree, and the replies it writes.

using System.Collections.Generic;
using System.Globalization;

/// <summary>One seat's view of the game, sent with every request (protocol section 6).</summary>
public sealed class View
{
    public int Seat, Round, MysterySize, DeckSize, Turn;
    public int[] Hand, HandSizes, Played, Unsold;
    public int[][] Tiles;   // [round][artist]
    public int[][] Bought;  // by seat
    public Auction Auction; // null when no auction runs
    public DoubleCard Double; // null when no double waits for a second card

    /// <summary>The view, every field required (a BadMessage "view: ..." naming a missing
    /// one).</summary>
    public static View From(object v)
    {
        try
        {
            return Read(v);
        }
        catch (BadMessage e)
        {
            throw new BadMessage("view: " + e.Message, e);
        }
    }

    static View Read(object v)
    {
        Json.NeedList(v, "money"); // the strategy does not read it; yours may
        return new View
        {
            Seat = Json.NeedInt(v, "seat"),
            Round = Json.NeedInt(v, "round"),
            MysterySize = Json.NeedInt(v, "mystery_size"),
            DeckSize = Json.NeedInt(v, "deck_size"),
            Turn = Json.NeedInt(v, "turn"),
            Hand = Json.Ints(Json.NeedList(v, "hand")),
            HandSizes = Json.Ints(Json.NeedList(v, "hand_sizes")),
            Played = Json.Ints(Json.NeedList(v, "played")),
            Unsold = Json.Ints(Json.NeedList(v, "unsold")),
            Tiles = Rows(Json.NeedList(v, "tiles")),
            Bought = Rows(Json.NeedList(v, "bought")),
            Auction = Auction.From(Json.Need(v, "auction", nullable: true)),
            Double = DoubleCard.From(Json.Need(v, "double", nullable: true)),
        };
    }

    static int[][] Rows(List<object> rows)
    {
        var result = new int[rows.Count][];
        for (int i = 0; i < rows.Count; i++) result[i] = Json.Ints(rows[i]);
        return result;
    }
}

/// <summary>The auction running now.</summary>
public sealed class Auction
{
    public int[] Cards;
    public string Type;
    public int Auctioneer, HighBid;

    public static Auction From(object a)
    {
        if (a == null) return null;
        Json.Need(a, "high_bidder", nullable: true);
        Json.Need(a, "price", nullable: true);
        return new Auction
        {
            Cards = Json.Ints(Json.NeedList(a, "cards")),
            Type = Json.NeedStr(a, "type"),
            Auctioneer = Json.NeedInt(a, "auctioneer"),
            HighBid = Json.NeedInt(a, "high_bid"),
        };
    }
}

/// <summary>A double waiting for a second card: who played it, and the card.</summary>
public sealed class DoubleCard
{
    public int Seat, Card;

    public static DoubleCard From(object d)
    {
        if (d == null) return null;
        return new DoubleCard { Seat = Json.NeedInt(d, "seat"), Card = Json.NeedInt(d, "card") };
    }
}

/// <summary>What a request allows; which fields it has depends on the decision (protocol
/// section 4): those it has are read (a BadMessage if one is missing), the others are empty
/// or 0.</summary>
public sealed class Legal
{
    public int[] Cards = new int[0];
    public int Min, Max, Price;
    public bool CanPass;

    public static Legal From(object l, string decision)
    {
        try
        {
            var legal = new Legal { CanPass = Json.NeedBool(l, "can_pass") };
            switch (decision)
            {
                case "play":
                case "offer":
                    legal.Cards = Json.Ints(Json.NeedList(l, "cards"));
                    break;
                case "bid":
                case "hidden_bid":
                case "price":
                    legal.Min = Json.NeedInt(l, "min");
                    legal.Max = Json.NeedInt(l, "max");
                    break;
                case "buy":
                    legal.Price = Json.NeedInt(l, "price");
                    break;
            } // mystery: can_pass alone
            return legal;
        }
        catch (BadMessage e)
        {
            throw new BadMessage("legal: " + e.Message, e);
        }
    }

    /// <summary>legal as far as it can be read, for the default answer.</summary>
    public static Legal Lenient(object l)
    {
        return new Legal
        {
            Cards = Json.Ints(Json.Get(l, "cards")),
            Min = Json.Int(l, "min"),
            Max = Json.Int(l, "max"),
            Price = Json.Int(l, "price"),
            CanPass = Json.Get(l, "can_pass") is bool && (bool)Json.Get(l, "can_pass"),
        };
    }
}

/// <summary>An answer to a request, without its id: {"action":"bid","amount":15}.</summary>
public struct Reply
{
    public string Name;  // play, offer, bid, price, buy, pass or reveal
    public int? Card;    // play and offer only
    public int? Amount;  // bid and price only

    public static Reply Pass() { return new Reply { Name = "pass" }; }
    public static Reply Buy() { return new Reply { Name = "buy" }; }
    public static Reply WithCard(string name, int card) { return new Reply { Name = name, Card = card }; }
    public static Reply WithAmount(string name, int amount) { return new Reply { Name = name, Amount = amount }; }

    /// <summary>The reply line: {"id":17,"action":"bid","amount":15}.</summary>
    public string ToLine(long id)
    {
        string line = "{\"id\":" + id.ToString(CultureInfo.InvariantCulture) + ",\"action\":" + Json.Quote(Name);
        if (Card.HasValue) line += ",\"card\":" + Card.Value.ToString(CultureInfo.InvariantCulture);
        if (Amount.HasValue) line += ",\"amount\":" + Amount.Value.ToString(CultureInfo.InvariantCulture);
        return line + "}";
    }

    /// <summary>The default answer to each decision: the first legal one (legal read
    /// leniently, by Legal.Lenient).</summary>
    public static Reply Fallback(string decision, Legal legal)
    {
        switch (decision)
        {
            case "play": return WithCard("play", legal.Cards.Length > 0 ? legal.Cards[0] : 0);
            case "hidden_bid": return WithAmount("bid", legal.Min);
            case "price": return WithAmount("price", legal.Min);
            default: return Pass();
        }
    }
}

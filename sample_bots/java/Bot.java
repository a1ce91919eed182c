// sample_java: a Modern Art bot in plain Java 17, speaking protocol v1
// (see ../../protocol/README.md).  No libraries: a small JSON reader/writer is at the bottom.
//
// Build: javac -d out Bot.java        Run: java -cp out Bot
//
// It reads one JSON object per line from stdin and answers every `request` with one JSON
// line on stdout, flushed at once; its log goes to stderr.  It plays any number of games and
// exits on `goodbye` or at end of input.
//
// Strategy (modest and cautious): a painting is worth its artist's tiles so far plus the tile
// the artist would get if the round ended now (by the cards played this round).  It bids up to
// half of that, prices at half, buys at half or less, plays the artist with most cards on the
// table (never a round-ending fifth card if it can help it), adds a second card to its own
// double or to a valuable one, and never turns a mystery card.  Every answer is checked against `legal`.

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Bot {
    static final String NAME = "sample_java";

    /** Artist index of each card id, from new_game's edition (-1 when unknown); null while
     *  there is no game (before new_game, or when it could not be read). */
    private int[] cardArtist = null;
    /** Whether each card id is a double. */
    private boolean[] isDouble = new boolean[0];

    public static void main(String[] args) throws IOException {
        // Keep the real stdout for protocol lines only; a stray System.out.println goes to stderr.
        Writer out = new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                                            StandardCharsets.UTF_8);
        System.setOut(System.err);
        // readLine has no line length limit: requests are several KiB, new_game more.
        BufferedReader in = new BufferedReader(new InputStreamReader(
                new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8), 1 << 16);
        new Bot().run(in, out);
    }

    void run(BufferedReader in, Writer out) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> msg;
            try {
                msg = Json.object(Json.parse(line));
            } catch (IllegalArgumentException e) {
                System.err.println(NAME + ": unreadable line ignored: " + e.getMessage());
                continue;
            }
            String type = Json.str(msg.get("type"));
            switch (type) {
                case "hello" -> send(out, Json.obj("type", "hello", "name", NAME, "protocol", 1));
                case "new_game" -> {
                    cardArtist = null; // until this one is read: its requests get the defaults
                    try {
                        checkNewGame(msg);
                        newGame(msg);
                    } catch (MissingField e) {
                        System.err.println(NAME + ": cannot read new_game (" + e.getMessage()
                                + "); answering the defaults");
                    } catch (RuntimeException | StackOverflowError | AssertionError e) {
                        cardArtist = null; // a bug in the set-up: that game's defaults
                        System.err.println(NAME + ": cannot read new_game (" + e + where(e)
                                + "); answering the defaults");
                        printTrace(e);
                    }
                }
                case "event" -> {
                    if (cardArtist == null) continue; // no game read: nothing to track
                    Object event = msg.get("event");
                    try {
                        seenEvent(Json.object(need(msg, "event", Map.class)));
                    } catch (RuntimeException | StackOverflowError | AssertionError e) {
                        // a bug in the tracking costs that event
                        Object kind = event instanceof Map<?, ?> ev ? ev.get("type") : null;
                        System.err.println(NAME + ": cannot read an event ("
                                + (kind instanceof String ? kind + ": " : "")
                                + (e instanceof MissingField ? e.getMessage() : e + where(e))
                                + "), ignored");
                        if (!(e instanceof MissingField)) printTrace(e);
                    }
                }
                case "request" -> {
                    if (!(msg.get("id") instanceof Long id)) {
                        System.err.println(NAME + ": request without an id, ignored");
                        continue;
                    }
                    Map<String, Object> reply = new LinkedHashMap<>();
                    reply.put("id", id);
                    String decision = Json.str(msg.get("decision"));
                    String asked = NAME + ": request " + id + " (" + decision + "): ";
                    try {
                        checkRequest(msg);
                        if (cardArtist == null)
                            throw new MissingField("no game: its new_game was missing or unreadable");
                        reply.putAll(decide(msg));
                    } catch (MissingField e) { // the request cannot be read: the default
                        System.err.println(asked + e.getMessage() + "; falling back to the default");
                        reply.putAll(firstLegal(decision, Json.object(msg.get("legal"))));
                    } catch (RuntimeException | StackOverflowError | AssertionError e) {
                        // A bug of ours: still answer, legally.  Besides exceptions, the errors
                        // a strategy's bug throws and the JVM lives through: a recursion too
                        // deep, a failed assert.  Not OutOfMemoryError: a leak's would come
                        // back at every request after the GC had thrashed (a timeout each), and
                        // ending the bot names it ("Exception in thread ... OutOfMemoryError").
                        System.err.println(asked + e + where(e) + "; falling back to the default");
                        printTrace(e); // to stderr: how your code got there
                        reply.putAll(firstLegal(decision, Json.object(msg.get("legal"))));
                    }
                    send(out, reply);
                }
                case "warning" -> System.err.println(NAME + ": warning for request " + msg.get("id")
                        + ": " + msg.get("fault") + ": " + msg.get("reason"));
                case "game_end" -> {
                    System.err.println(NAME + ": game over, ranks " + Json.write(msg.get("ranks")));
                    cardArtist = null;
                }
                case "goodbye" -> {
                    return;
                }
                default -> { } // a type we do not know
            }
        }
    }

    static void send(Writer out, Map<String, Object> message) throws IOException {
        out.write(Json.write(message));
        out.write('\n');
        out.flush(); // an unflushed reply never arrives
    }

    /** " at Bot.java:123 in Bot.decide": the first place in this bot's own code (not the
     *  JDK's) that the exception passed through, the line to look at. */
    static String where(Throwable e) {
        for (StackTraceElement frame : e.getStackTrace()) {
            if (frame.getClassName().equals(Bot.class.getName())
                    || frame.getClassName().startsWith(Bot.class.getName() + "$"))
                return " at " + frame.getFileName() + ":" + frame.getLineNumber() + " in "
                        + frame.getClassName() + "." + frame.getMethodName();
        }
        return "";
    }

    static final int TRACE_FRAMES = 30;

    /** e's stack trace on stderr, cut at TRACE_FRAMES frames: a StackOverflowError's holds
     *  a thousand, the same few calls over and over, at every request it fails. */
    static void printTrace(Throwable e) {
        StackTraceElement[] frames = e.getStackTrace();
        if (frames.length <= TRACE_FRAMES) {
            e.printStackTrace();
            return;
        }
        System.err.println(e);
        for (int i = 0; i < TRACE_FRAMES; i++) System.err.println("\tat " + frames[i]);
        System.err.println("\t... " + (frames.length - TRACE_FRAMES) + " more");
    }

    // ------------------------------------------------------------------ reading

    /** A field the protocol always sends is missing (or null, or of the wrong type): named,
     *  never read as 0.  Only new_game's seed may be absent. */
    static final class MissingField extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MissingField(String message) {
            super(message);
        }
    }

    /** obj[key], which must be there and not null (unless nullable) and, if type is not null,
     *  of that type. */
    static Object need(Object obj, String key, Class<?> type, boolean nullable) {
        if (!(obj instanceof Map<?, ?> map)) throw new MissingField("no field \"" + key + "\" in a non-object");
        if (!map.containsKey(key)) throw new MissingField("no field \"" + key + "\"");
        Object value = map.get(key);
        if (value == null && !nullable) throw new MissingField("field \"" + key + "\" is null");
        if (value != null && type != null && !type.isInstance(value))
            throw new MissingField("field \"" + key + "\" is not a " + type.getSimpleName());
        return value;
    }

    static Object need(Object obj, String key, Class<?> type) {
        return need(obj, key, type, false);
    }

    /** Throws MissingField, naming it, when new_game lacks a field the bot reads. */
    static void checkNewGame(Map<String, Object> msg) {
        for (String key : List.of("game_id", "seat", "players", "variants")) need(msg, key, null);
        Object edition = need(msg, "edition", Map.class);
        need(edition, "artists", List.class);
        for (Object card : (List<?>) need(edition, "cards", List.class)) {
            need(card, "id", Long.class);
            need(card, "artist", Long.class);
            need(card, "type", String.class);
        }
    }

    static final List<String> VIEW_FIELDS = List.of("seat", "round", "money", "hand",
            "hand_sizes", "mystery_size", "deck_size", "tiles", "played", "bought", "unsold",
            "turn");

    /** Throws MissingField, naming it, when the request lacks a field its view or its legal
     *  (the fields of its decision, protocol section 4) always has. */
    static void checkRequest(Map<String, Object> msg) {
        Object view = need(msg, "view", Map.class);
        for (String key : VIEW_FIELDS) need(view, key, null);
        Object auction = need(view, "auction", Map.class, true);
        if (auction != null) {
            need(auction, "cards", List.class);
            need(auction, "type", String.class);
            need(auction, "auctioneer", Long.class);
            need(auction, "high_bid", Long.class);
            need(auction, "high_bidder", Long.class, true);
            need(auction, "price", Long.class, true);
        }
        Object dbl = need(view, "double", Map.class, true);
        if (dbl != null) {
            need(dbl, "seat", Long.class);
            need(dbl, "card", Long.class);
        }
        Object legal = need(msg, "legal", Map.class);
        try {
            need(legal, "can_pass", Boolean.class);
            switch (Json.str(msg.get("decision"))) {
                case "play", "offer" -> need(legal, "cards", List.class);
                case "bid", "hidden_bid", "price" -> {
                    need(legal, "min", Long.class);
                    need(legal, "max", Long.class);
                }
                case "buy" -> need(legal, "price", Long.class);
                default -> { } // mystery: can_pass alone
            }
        } catch (MissingField e) {
            throw new MissingField("legal: " + e.getMessage());
        }
    }

    void newGame(Map<String, Object> msg) {
        List<Object> cards = Json.list(Json.object(msg.get("edition")).get("cards"));
        cardArtist = new int[cards.size()];
        isDouble = new boolean[cards.size()];
        java.util.Arrays.fill(cardArtist, -1);
        for (Object c : cards) {
            Map<String, Object> card = Json.object(c);
            int id = (int) Json.num(card.get("id"), -1);
            if (id >= 0 && id < cardArtist.length) {
                cardArtist[id] = (int) Json.num(card.get("artist"), -1);
                isDouble[id] = "double".equals(card.get("type"));
            }
        }
        System.err.println(NAME + ": game " + msg.get("game_id") + ", seat " + msg.get("seat")
                + " of " + msg.get("players"));
    }

    /** An event of this game (protocol section 5), as sent.  This bot tracks none (every
     *  request has a full view); track here what yours needs.  An exception here is logged
     *  with its place and the event ignored: the bot plays on. */
    void seenEvent(Map<String, Object> event) {
    }

    int artistOf(long card) {
        return card >= 0 && card < cardArtist.length ? cardArtist[(int) card] : -1;
    }

    boolean isDouble(long card) {
        return card >= 0 && card < isDouble.length && isDouble[(int) card];
    }

    // ------------------------------------------------------------------ decisions

    /** The answer to a request, without its id. */
    Map<String, Object> decide(Map<String, Object> request) {
        String decision = Json.str(request.get("decision"));
        Map<String, Object> view = Json.object(request.get("view"));
        Map<String, Object> legal = Json.object(request.get("legal"));
        List<Object> played = Json.list(view.get("played"));
        int n = played.size();

        // value[a]: tiles so far + this round's tile if the round ended now (R5.3, R5.4).
        long[] value = new long[n];
        for (Object row : Json.list(view.get("tiles")))
            for (int a = 0; a < n && a < Json.list(row).size(); a++)
                value[a] += Json.num(Json.list(row).get(a), 0);
        for (int a = 0; a < n; a++) {
            int rank = 0; // artists ahead; ties go to the artist further left
            for (int b = 0; b < n; b++) {
                long pa = Json.num(played.get(a), 0), pb = Json.num(played.get(b), 0);
                if (pb > pa || (pb == pa && b < a)) rank++;
            }
            value[a] = rank < 3 ? value[a] + 30 - 10 * rank : 0;
        }
        long lot = 0; // the lot on offer: the running auction's cards
        Map<String, Object> auction = Json.object(view.get("auction"));
        for (Object c : Json.list(auction.get("cards"))) {
            int a = artistOf(Json.num(c, -1));
            if (a >= 0 && a < n) lot += value[a];
        }
        long min = Json.num(legal.get("min"), 0), max = Json.num(legal.get("max"), 0);

        switch (decision) {
            case "play": {
                List<Object> hand = Json.list(legal.get("cards"));
                long best = -1, bestScore = Long.MIN_VALUE;
                for (Object c : hand) {
                    long card = Json.num(c, -1);
                    int a = artistOf(card);
                    long count = a >= 0 && a < n ? Json.num(played.get(a), 0) : 0;
                    long score = count >= 4 ? -1 : 2 * count; // a fifth card ends the round unsold
                    // A double we can add a card to ourselves: two paintings, all the money.
                    if (isDouble(card) && count <= 2 && hand.stream().anyMatch(
                            h -> artistOf(Json.num(h, -1)) == a && !isDouble(Json.num(h, -1))))
                        score++;
                    if (score > bestScore) {
                        best = card;
                        bestScore = score;
                    }
                }
                if (best >= 0) return Json.obj("action", "play", "card", best);
                break;
            }
            case "offer": {
                Map<String, Object> dbl = Json.object(view.get("double"));
                int a = artistOf(Json.num(dbl.get("card"), -1));
                boolean ours = Json.num(dbl.get("seat"), -1) == Json.num(view.get("seat"), -2);
                List<Object> cards = Json.list(legal.get("cards"));
                boolean endsRound = a < 0 || a >= n || Json.num(played.get(a), 0) >= 4;
                // Adding makes us the auctioneer of both cards, and we get the money (R4.5).
                if (!endsRound && (ours || 2 * value[a] >= 40) && !cards.isEmpty())
                    return Json.obj("action", "offer", "card", Json.num(cards.get(0), 0));
                return Json.obj("action", "pass");
            }
            case "bid": {
                long limit = Math.min(lot / 2, max);
                if (limit >= min) return Json.obj("action", "bid", "amount", min);
                return Json.obj("action", "pass");
            }
            case "hidden_bid":
                return Json.obj("action", "bid", "amount", clamp(lot / 3, 0, max));
            case "price":
                return Json.obj("action", "price", "amount", clamp(lot / 2, min, max));
            case "buy": {
                long price = Json.num(legal.get("price"), Long.MAX_VALUE);
                return Json.obj("action", price <= lot / 2 ? "buy" : "pass");
            }
            default: // mystery, or a decision we do not know: pass
        }
        return firstLegal(decision, legal);
    }

    static Map<String, Object> firstLegal(String decision, Map<String, Object> legal) {
        return switch (decision) {
            case "play" -> Json.obj("action", "play", "card",
                                    Json.num(Json.list(legal.get("cards")).stream().findFirst()
                                             .orElse(null), 0));
            case "hidden_bid" -> Json.obj("action", "bid", "amount", 0);
            case "price" -> Json.obj("action", "price", "amount", Json.num(legal.get("min"), 1));
            default -> Json.obj("action", "pass"); // offer, bid, buy, mystery
        };
    }

    static long clamp(long x, long lo, long hi) {
        return Math.max(lo, Math.min(hi, x));
    }

    // ------------------------------------------------------------------ JSON

    /**
     * Just enough JSON: objects (LinkedHashMap), arrays (ArrayList), strings (all escapes,
     * \\u surrogate pairs included), numbers (Long when integral and in range, else Double),
     * true, false and null.  parse throws IllegalArgumentException on anything else.
     */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json p = new Json(text);
            Object v = p.value(0);
            p.ws();
            if (p.i != text.length()) throw p.error("trailing characters");
            return v;
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at offset " + i);
        }

        private void ws() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
        }

        private char next() {
            if (i >= s.length()) throw error("unexpected end");
            return s.charAt(i++);
        }

        private void expect(char c) {
            if (next() != c) throw error("expected '" + c + "'");
        }

        private Object value(int depth) {
            if (depth > 500) throw error("nested too deep");
            ws();
            char c = next();
            switch (c) {
                case '{': {
                    Map<String, Object> map = new LinkedHashMap<>();
                    ws();
                    if (i < s.length() && s.charAt(i) == '}') {
                        i++;
                        return map;
                    }
                    do {
                        ws();
                        expect('"');
                        String key = string();
                        ws();
                        expect(':');
                        map.put(key, value(depth + 1));
                        ws();
                    } while ((c = next()) == ',');
                    if (c != '}') throw error("expected ',' or '}'");
                    return map;
                }
                case '[': {
                    List<Object> list = new ArrayList<>();
                    ws();
                    if (i < s.length() && s.charAt(i) == ']') {
                        i++;
                        return list;
                    }
                    do {
                        list.add(value(depth + 1));
                        ws();
                    } while ((c = next()) == ',');
                    if (c != ']') throw error("expected ',' or ']'");
                    return list;
                }
                case '"':
                    return string();
                case 't':
                    return literal("rue", Boolean.TRUE);
                case 'f':
                    return literal("alse", Boolean.FALSE);
                case 'n':
                    return literal("ull", null);
                default:
                    i--;
                    return number();
            }
        }

        private Object literal(String rest, Object v) {
            if (!s.startsWith(rest, i)) throw error("bad literal");
            i += rest.length();
            return v;
        }

        /** The rest of a string whose opening quote has been read. */
        private String string() {
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') return b.toString();
                if (c < 0x20) throw error("control character in string");
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                c = next();
                switch (c) {
                    case '"', '\\', '/' -> b.append(c);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (i + 4 > s.length()) throw error("bad \\u escape");
                        try {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        } catch (NumberFormatException e) {
                            throw error("bad \\u escape");
                        }
                        i += 4;
                    }
                    default -> throw error("bad escape");
                }
            }
        }

        private Object number() {
            int start = i;
            boolean integral = true;
            if (i < s.length() && s.charAt(i) == '-') i++;
            if (i < s.length() && s.charAt(i) == '0') i++;
            else digits();
            if (i < s.length() && s.charAt(i) == '.') {
                integral = false;
                i++;
                digits();
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                integral = false;
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
                digits();
            }
            String text = s.substring(start, i);
            if (integral) {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    // too big for a long: fall through to a double
                }
            }
            return Double.parseDouble(text);
        }

        private void digits() {
            int start = i;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
            if (i == start) throw error("expected a digit");
        }

        /** One line of JSON for maps, lists, strings, numbers, booleans and null. */
        static String write(Object v) {
            StringBuilder b = new StringBuilder();
            write(b, v);
            return b.toString();
        }

        private static void write(StringBuilder b, Object v) {
            if (v == null) {
                b.append("null");
            } else if (v instanceof String str) {
                quote(b, str);
            } else if (v instanceof Map<?, ?> map) {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!first) b.append(',');
                    first = false;
                    quote(b, String.valueOf(e.getKey()));
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
            } else if (v instanceof List<?> list) {
                b.append('[');
                for (int k = 0; k < list.size(); k++) {
                    if (k > 0) b.append(',');
                    write(b, list.get(k));
                }
                b.append(']');
            } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
                b.append("null");
            } else if (v instanceof Number || v instanceof Boolean) {
                b.append(v);
            } else {
                quote(b, v.toString());
            }
        }

        private static void quote(StringBuilder b, String str) {
            b.append('"');
            for (int k = 0; k < str.length(); k++) {
                char c = str.charAt(k);
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                        else b.append(c);
                    }
                }
            }
            b.append('"');
        }

        /** A map from alternating keys and values: obj("action", "bid", "amount", 15). */
        static Map<String, Object> obj(Object... kv) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int k = 0; k + 1 < kv.length; k += 2) map.put((String) kv[k], kv[k + 1]);
            return map;
        }

        // Lenient accessors: a missing or mistyped field reads as empty, "" or the default.

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(Object v) {
            return v instanceof Map ? (Map<String, Object>) v : Map.of();
        }

        @SuppressWarnings("unchecked")
        static List<Object> list(Object v) {
            return v instanceof List ? (List<Object>) v : List.of();
        }

        static String str(Object v) {
            return v instanceof String str ? str : "";
        }

        static long num(Object v, long dflt) {
            return v instanceof Number x ? x.longValue() : dflt;
        }
    }
}

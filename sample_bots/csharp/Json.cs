// A small JSON reader and writer, enough for the protocol: Mono has no System.Text.Json.
//
// Json.Parse gives a tree of Dictionary<string, object> (objects), List<object> (arrays),
// string, long (integers), double (other numbers), bool and null.  The helpers below read
// fields from that tree leniently: a missing field gives the default you pass; the Need ones
// strictly, for the fields the protocol always sends (View.From, Legal.From, new Game).

using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

/// <summary>A message the bot cannot read: a field the protocol always sends is missing (or
/// null, or mistyped), named, never read as 0.  Only new_game's seed may be absent.</summary>
public sealed class BadMessage : Exception
{
    public BadMessage(string message) : base(message) { }
    /// <summary>The same fault, placed ("legal: ..."): `inner` keeps where it was read.</summary>
    public BadMessage(string message, BadMessage inner) : base(message, inner) { }
}

public static class Json
{
    public static object Parse(string text)
    {
        int pos = 0;
        object value = ReadValue(text, ref pos);
        SkipSpace(text, ref pos);
        if (pos != text.Length) throw new FormatException("extra text after the JSON value at " + pos);
        return value;
    }

    static void SkipSpace(string s, ref int pos)
    {
        while (pos < s.Length && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r' || s[pos] == '\n')) pos++;
    }

    static object ReadValue(string s, ref int pos)
    {
        SkipSpace(s, ref pos);
        if (pos >= s.Length) throw new FormatException("unexpected end of JSON");
        char c = s[pos];
        if (c == '{') return ReadObject(s, ref pos);
        if (c == '[') return ReadArray(s, ref pos);
        if (c == '"') return ReadString(s, ref pos);
        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber(s, ref pos);
        if (Word(s, ref pos, "true")) return true;
        if (Word(s, ref pos, "false")) return false;
        if (Word(s, ref pos, "null")) return null;
        throw new FormatException("unexpected '" + c + "' at " + pos);
    }

    static bool Word(string s, ref int pos, string word)
    {
        if (string.CompareOrdinal(s, pos, word, 0, word.Length) != 0) return false;
        pos += word.Length;
        return true;
    }

    static Dictionary<string, object> ReadObject(string s, ref int pos)
    {
        var obj = new Dictionary<string, object>();
        pos++; // {
        SkipSpace(s, ref pos);
        if (pos < s.Length && s[pos] == '}') { pos++; return obj; }
        while (true)
        {
            SkipSpace(s, ref pos);
            if (pos >= s.Length || s[pos] != '"') throw new FormatException("expected a key at " + pos);
            string key = ReadString(s, ref pos);
            SkipSpace(s, ref pos);
            if (pos >= s.Length || s[pos] != ':') throw new FormatException("expected ':' at " + pos);
            pos++;
            obj[key] = ReadValue(s, ref pos);
            SkipSpace(s, ref pos);
            if (pos < s.Length && s[pos] == ',') { pos++; continue; }
            if (pos < s.Length && s[pos] == '}') { pos++; return obj; }
            throw new FormatException("expected ',' or '}' at " + pos);
        }
    }

    static List<object> ReadArray(string s, ref int pos)
    {
        var list = new List<object>();
        pos++; // [
        SkipSpace(s, ref pos);
        if (pos < s.Length && s[pos] == ']') { pos++; return list; }
        while (true)
        {
            list.Add(ReadValue(s, ref pos));
            SkipSpace(s, ref pos);
            if (pos < s.Length && s[pos] == ',') { pos++; continue; }
            if (pos < s.Length && s[pos] == ']') { pos++; return list; }
            throw new FormatException("expected ',' or ']' at " + pos);
        }
    }

    static string ReadString(string s, ref int pos)
    {
        var sb = new StringBuilder();
        pos++; // opening quote
        while (pos < s.Length)
        {
            char c = s[pos++];
            if (c == '"') return sb.ToString();
            if (c != '\\') { sb.Append(c); continue; }
            if (pos >= s.Length) break;
            char e = s[pos++];
            switch (e)
            {
                case 'n': sb.Append('\n'); break;
                case 't': sb.Append('\t'); break;
                case 'r': sb.Append('\r'); break;
                case 'b': sb.Append('\b'); break;
                case 'f': sb.Append('\f'); break;
                case 'u':
                    if (pos + 4 > s.Length) throw new FormatException("short \\u escape");
                    sb.Append((char)int.Parse(s.Substring(pos, 4), NumberStyles.HexNumber));
                    pos += 4;
                    break;
                default: sb.Append(e); break; // \" \\ \/
            }
        }
        throw new FormatException("unterminated string");
    }

    static object ReadNumber(string s, ref int pos)
    {
        int start = pos;
        bool integral = true;
        while (pos < s.Length && "+-0123456789.eE".IndexOf(s[pos]) >= 0)
        {
            if (s[pos] == '.' || s[pos] == 'e' || s[pos] == 'E') integral = false;
            pos++;
        }
        string text = s.Substring(start, pos - start);
        long whole;
        if (integral && long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out whole))
            return whole;
        return double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
    }

    // ------------------------------------------------------------ reading fields

    public static object Get(object obj, string key)
    {
        var dict = obj as Dictionary<string, object>;
        object value;
        return dict != null && dict.TryGetValue(key, out value) ? value : null;
    }

    public static string Str(object obj, string key, string otherwise = null)
    {
        return Get(obj, key) as string ?? otherwise;
    }

    public static long Long(object obj, string key, long otherwise = 0)
    {
        object value = Get(obj, key);
        return value is long ? (long)value : otherwise;
    }

    public static int Int(object obj, string key, int otherwise = 0)
    {
        return (int)Long(obj, key, otherwise);
    }

    /// <summary>An array of integers (null entries and other values read as 0).</summary>
    public static int[] Ints(object value)
    {
        var list = value as List<object>;
        if (list == null) return new int[0];
        var ints = new int[list.Count];
        for (int i = 0; i < ints.Length; i++) ints[i] = list[i] is long ? (int)(long)list[i] : 0;
        return ints;
    }

    public static List<object> List(object obj, string key)
    {
        return Get(obj, key) as List<object> ?? new List<object>();
    }

    // Strict readers, for the fields the protocol always sends: a missing one (or null, or of
    // the wrong type) is a BadMessage naming it, never read as 0.

    /// <summary>obj[key], which must be there and, unless nullable, not null.</summary>
    public static object Need(object obj, string key, bool nullable = false)
    {
        var dict = obj as Dictionary<string, object>;
        object value;
        if (dict == null || !dict.TryGetValue(key, out value)) throw new BadMessage("no field \"" + key + "\"");
        if (value == null && !nullable) throw new BadMessage("field \"" + key + "\" is null");
        return value;
    }

    public static int NeedInt(object obj, string key)
    {
        object value = Need(obj, key);
        if (!(value is long)) throw new BadMessage("field \"" + key + "\" is not an integer");
        return (int)(long)value;
    }

    public static List<object> NeedList(object obj, string key)
    {
        var list = Need(obj, key) as List<object>;
        if (list == null) throw new BadMessage("field \"" + key + "\" is not a list");
        return list;
    }

    public static string NeedStr(object obj, string key)
    {
        var text = Need(obj, key) as string;
        if (text == null) throw new BadMessage("field \"" + key + "\" is not a string");
        return text;
    }

    public static bool NeedBool(object obj, string key)
    {
        object value = Need(obj, key);
        if (!(value is bool)) throw new BadMessage("field \"" + key + "\" is not true or false");
        return (bool)value;
    }

    // ------------------------------------------------------------ writing

    /// <summary>A JSON string literal: quotes, backslashes and control characters escaped.</summary>
    public static string Quote(string text)
    {
        var sb = new StringBuilder("\"");
        foreach (char c in text)
        {
            if (c == '"') sb.Append("\\\"");
            else if (c == '\\') sb.Append("\\\\");
            else if (c < ' ') sb.AppendFormat("\\u{0:x4}", (int)c);
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }
}

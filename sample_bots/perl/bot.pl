#!/usr/bin/env perl
# modest_pl: a simple Modern Art bot in Perl 5 (protocol v1, core modules only).
#
# It plays a card of the artist that leads the round (never a round-ending 5th card if it
# can help it), values a painting by what it would sell for if the round ended now, and bids,
# prices and buys at about half that value. Every answer comes from the request's `legal`
# field, so it never makes an illegal move.
#
# Run:  perl bot.pl [--name NAME]
# Protocol: ../../protocol/README.md. Everything on stdout is a protocol line; logging goes
# to stderr.

use strict;
use warnings;
use JSON::PP ();   # core since Perl 5.14
use List::Util qw(max min sum0);

my $PROTOCOL = 1;
my @TILES = (30, 20, 10);    # value tiles for a round's top three artists (R5.3)

my $name = 'modest_pl';
for my $i (0 .. $#ARGV - 1) {
    $name = substr($ARGV[$i + 1], 0, 64) if $ARGV[$i] eq '--name';
}

binmode STDIN,  ':raw';
binmode STDOUT, ':raw';
binmode STDERR, ':encoding(UTF-8)';
STDOUT->autoflush(1);        # flush after every line: an unflushed reply never arrives
STDERR->autoflush(1);

# utf8: decode UTF-8 bytes in, encode UTF-8 bytes out; canonical: stable key order.
my $json = JSON::PP->new->utf8->canonical;

sub logmsg { print STDERR "$name: ", @_, "\n" }    # "NAME: ...", as in every kit

sub send_msg {
    my ($message) = @_;
    print STDOUT $json->encode($message), "\n";
}

# ---- game knowledge ------------------------------------------------------------------

my %game;    # seat, card_artist => [artist by card id], card_type => [type by card id];
             # empty while there is no game (before new_game, or when it could not be read)

# $obj->{$key}, a field the protocol always sends: dies naming it when it is missing (or
# null, unless $nullable), never read as 0 or undef.
sub need {
    my ($obj, $key, $nullable) = @_;
    die qq(no field "$key"\n) if ref $obj ne 'HASH' || !exists $obj->{$key};
    die qq(field "$key" is null\n) if !$nullable && !defined $obj->{$key};
    return $obj->{$key};
}

# Which fields `legal` has for each decision (protocol section 4): each is required.
my %LEGAL_FIELDS = (
    play => [qw(cards can_pass)], offer => [qw(cards can_pass)],
    bid => [qw(min max can_pass)], hidden_bid => [qw(min max can_pass)],
    price => [qw(min max can_pass)], buy => [qw(price can_pass)], mystery => [qw(can_pass)],
);
my @VIEW_FIELDS = qw(seat round money hand hand_sizes mystery_size deck_size tiles played bought
                     unsold turn);

# Dies, naming the field, when the request lacks one its view or legal always has.
sub check_request {
    my ($msg) = @_;
    my $view = need($msg, 'view');
    need($view, $_) for @VIEW_FIELDS;
    if (my $auction = need($view, 'auction', 1)) {
        need($auction, $_) for qw(cards type auctioneer high_bid);
        need($auction, $_, 1) for qw(high_bidder price);
    }
    if (my $double = need($view, 'double', 1)) {
        need($double, $_) for qw(seat card);
    }
    my $legal = need($msg, 'legal');
    eval { need($legal, $_) for @{ $LEGAL_FIELDS{ $msg->{decision} // '' } || [] }; 1 }
        or die "legal: $@";
}

sub new_game {
    my ($msg) = @_;
    %game = ();    # until this one is read: its requests get the default answers
    need($msg, $_) for qw(game_id seat players variants);    # seed may be absent
    my $edition = need($msg, 'edition');
    my $artists = need($edition, 'artists');
    my (@artist, @type);
    for my $card (@{ need($edition, 'cards') }) {
        need($card, $_) for qw(id artist type);
        die "card $card->{id} has no artist $card->{artist}\n"
            if $card->{artist} < 0 || $card->{artist} >= @$artists;
        $artist[ $card->{id} ] = $card->{artist};
        $type[ $card->{id} ]   = $card->{type};
    }
    %game = (seat => $msg->{seat}, card_artist => \@artist, card_type => \@type);
    logmsg("new game $msg->{game_id}: seat $msg->{seat} of $msg->{players}");
}

# An event of this game (protocol section 5), as sent. This bot tracks none (every request
# carries a full view, and the loop below skips events unread); to track one, remove that
# skip and do it here. An error here is logged with its place and the event ignored.
sub seen_event {
    my ($event) = @_;
}

sub artist_of { my ($card) = @_; return $game{card_artist}[$card] // 0 }

# What one painting of each artist would sell for if the round ended now: the artist's
# earlier tiles plus this round's tile, for the top three by cards played (ties: leftmost).
sub painting_values {
    my ($view) = @_;
    my @played = @{ $view->{played} };
    my @order = sort { $played[$b] <=> $played[$a] || $a <=> $b } grep { $played[$_] > 0 } 0 .. $#played;
    my @values = (0) x @played;
    for my $rank (0 .. min(2, $#order)) {
        my $art = $order[$rank];
        my $earlier = sum0(map { $_->[$art] // 0 } @{ $view->{tiles} || [] });
        $values[$art] = $earlier + $TILES[$rank];
    }
    return @values;
}

sub lot_value {
    my ($view) = @_;
    my $auction = $view->{auction} or return 0;
    my @values = painting_values($view);
    return sum0(map { $values[ artist_of($_) ] } @{ $auction->{cards} });
}

sub clamp {
    my ($x, $lo, $hi) = @_;
    $x = int($x);
    $x = $hi if $x > $hi;
    $x = $lo if $x < $lo;
    return 0 + $x;    # a number, so JSON::PP writes 15 and not "15"
}

# ---- decisions -----------------------------------------------------------------------

sub decide {
    my ($msg)    = @_;
    my $decision = $msg->{decision} // '';
    my $view     = $msg->{view};
    my $legal    = $msg->{legal} || {};

    if ($decision eq 'play') {
        # A card of the artist with the most cards played this round, but not a 5th card
        # (it would end the round unsold) unless every card is one.
        my @played = @{ $view->{played} };
        my ($best, $best_score);
        for my $card (@{ $legal->{cards} }) {
            my $art = artist_of($card);
            my $score = $played[$art] >= 4 ? -100 : $played[$art];
            ($best, $best_score) = ($card, $score) if !defined $best_score || $score > $best_score;
        }
        return { action => 'play', card => 0 + $best };
    }
    if ($decision eq 'offer') {
        # Add a second card (we become the auctioneer and collect the proceeds), unless it
        # would be the artist's 5th card this round.
        my $cards = $legal->{cards} || [];
        my $double = $view->{double};
        if (@$cards && $double && $view->{played}[ artist_of($double->{card}) ] < 4) {
            return { action => 'offer', card => 0 + $cards->[0] };
        }
        return { action => 'pass' };
    }
    if ($decision eq 'bid') {
        my $limit = int(0.5 * lot_value($view));
        if ($legal->{min} <= $legal->{max} && $legal->{min} <= $limit) {
            return { action => 'bid', amount => 0 + $legal->{min} };
        }
        return { action => 'pass' };
    }
    if ($decision eq 'hidden_bid') {
        return { action => 'bid', amount => clamp(0.4 * lot_value($view), $legal->{min} // 0, $legal->{max}) };
    }
    if ($decision eq 'price') {
        return { action => 'price', amount => clamp(0.5 * lot_value($view), $legal->{min}, $legal->{max}) };
    }
    if ($decision eq 'buy') {
        return { action => ($legal->{price} <= 0.5 * lot_value($view) ? 'buy' : 'pass') };
    }
    # mystery (and anything unknown): pass is always allowed there.
    logmsg("unknown decision '$decision'; passing") if $decision ne 'mystery';
    return { action => 'pass' };
}

sub fallback {
    my ($msg) = @_;
    my $decision = $msg->{decision} // '';
    my $legal = $msg->{legal} || {};
    return { action => 'play', card => 0 + $legal->{cards}[0] } if $decision eq 'play';
    return { action => 'bid', amount => 0 + ($legal->{min} // 0) } if $decision eq 'hidden_bid';
    return { action => 'price', amount => 0 + ($legal->{min} // 0) } if $decision eq 'price';
    return { action => 'pass' };
}

# ---- the protocol loop -----------------------------------------------------------------

# Runs $code->(@args) in an eval: its result, or undef and the error in one line, with its
# place in this file by line and sub (`Can't use an undefined value as an ARRAY reference
# at bot.pl:163 in decide`) where Perl wrote `at bot.pl line 163, <STDIN> line 3.`; an error
# that ends in a newline (a missing field: `no field "min"`) as it is. So a bug in the
# strategy is one line of the log, and the bot plays on.
sub attempt {
    my ($code, @args) = @_;
    my @died;    # where the last die was: its file, line and sub
    local $SIG{__DIE__} = sub { @died = ((caller 0)[1, 2], (caller 1)[3] // '') };
    my $result = eval { $code->(@args) };
    return ($result, undef) if !$@;
    my $error = "$@";
    if ($error =~ s/ at (.+?) line (\d+)(?:, <\w+> (?:line|chunk) \d+)?\.\n\z//) {
        my ($file, $line) = ($1, $2);
        my $sub = @died && $died[0] eq $file && $died[1] == $line ? $died[2] : '';
        $sub =~ s/^main:://;
        $file =~ s{.*/}{};
        $error .= " at $file:$line" . ($sub && $sub ne '(eval)' ? " in $sub" : '');
    }
    chomp $error;
    return (undef, $error);
}

$SIG{PIPE} = sub { exit 0 };    # the referee went away

while (my $line = <STDIN>) {
    # Events carry nothing this bot uses, and decoding them is a third of its time (JSON::PP
    # is pure Perl): skip a line that starts as an event. One written otherwise is decoded.
    # A bot that tracks the game from its events removes this line.
    next if index($line, '{"type":"event"') == 0;
    next unless $line =~ /\S/;
    my $msg = eval { $json->decode($line) };
    if (!defined $msg || ref $msg ne 'HASH') {
        logmsg('ignoring a line that is not a JSON object');
        next;
    }
    my $type = $msg->{type} // '';
    if ($type eq 'hello') {
        send_msg({ type => 'hello', name => $name, protocol => $PROTOCOL });
    }
    elsif ($type eq 'new_game') {
        my (undef, $problem) = attempt(\&new_game, $msg);
        logmsg("cannot read new_game ($problem); answering the defaults") if defined $problem;
    }
    elsif ($type eq 'event') {
        # A bug in the tracking costs that event, not a crash that retires the bot.
        my (undef, $problem) = %game ? attempt(sub { seen_event(need($msg, 'event')) }) : ();
        if (defined $problem) {
            my $event = ref $msg->{event} eq 'HASH' ? $msg->{event}{type} : undef;
            logmsg('cannot read an event (' . (defined $event && !ref $event ? "$event: " : '')
                . "$problem), ignored");
        }
    }
    elsif ($type eq 'request') {
        my $asked = 'request ' . ($msg->{id} // '?') . ' (' . ($msg->{decision} // '?') . ')';
        my $reply;
        if (!eval { check_request($msg); %game or die "no game: its new_game was missing or unreadable\n"; 1 }) {
            chomp(my $problem = $@);    # a field missing: no place in the code to show
            logmsg("$asked: $problem; falling back to the default");
        }
        else {
            ($reply, my $problem) = attempt(\&decide, $msg);
            logmsg("$asked: $problem; falling back to the default") if defined $problem;
        }
        $reply ||= fallback($msg);
        send_msg({ id => 0 + $msg->{id}, %$reply });
    }
    elsif ($type eq 'warning') {
        logmsg("warning for request $msg->{id}: $msg->{fault}: $msg->{reason}");
    }
    elsif ($type eq 'game_end') {
        logmsg("game $msg->{game_id} over: money @{ $msg->{money} }, ranks @{ $msg->{ranks} }");
        %game = ();
    }
    elsif ($type eq 'goodbye') {
        last;
    }
    # unknown message types need no answer
}
exit 0;

"""`referee check BOT`: a conformance run that tells a bot author what their bot gets wrong.

The bot plays scripted games against in-process opponents, at seat 0 in few of them (a bot
that takes seat 0's money for its own is found out).  Decks are arranged so that it must run
each auction type as auctioneer; other games cover bidding, doubles, the mystery variant, 3
and 5 players and hidden money, all in one process, in the cmon edition;
the last games are in the classic edition and in a user's edition of six artists, so that a bot
that assumes the cmon deck is found out.  One reply gets an injected warning, and the bot must
carry on.  Each check passes when the situation occurred and every answer the bot gave in it
was accepted.
"""

from .run import run_check, summary
from .situations import CHECK_COUNT, MOVE_TIME_CHECK, CheckResult

__all__ = ["CHECK_COUNT", "MOVE_TIME_CHECK", "CheckResult", "run_check", "summary"]

"""A contest: the tournament file, its schedule (a pure function of the file), the executors
that play its games, the results store (the only SQL), sharding and merging; `session.py`
is the workflow that ties them."""

"""Building the engine's named tuples on its hot path.

A ``NamedTuple`` class gets a ``__new__`` written in Python (it applies the defaults), which costs
more than the tuple itself, and a replay makes five of these values for every move. ``new_tuple(Cls,
values)`` is ``tuple.__new__``: it takes every field in order, applies no default and checks
nothing, so it is used only where the engine itself supplies every value.
"""

from __future__ import annotations

new_tuple = tuple.__new__  # not "record": a record is a round's moves (replayRound)

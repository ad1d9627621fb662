"""The expert: club's terms with the weights that beat club (docs/strategy.md, "Levels").

Club's weights were tuned against greedy and random players. Tuned against club itself (seat-swapped
two-player chkobba rounds, ``bench/ladder.py``), one change measured ahead: a card laid costs nothing
of its race worth (``lay`` 0 instead of 0.6). The reply term already values what the next player can
take from the table left, so the habit counted the card laid twice. A sampling search (club's reply
in 8 deals of the unseen cards, club valuing the position left) measured behind club, -0.18 a round
(-0.38..+0.01) over 400 rounds, and is not used.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .weights import WEIGHTS, Weights

EXPERT_WEIGHTS: Final[Mapping[str, Weights]] = MappingProxyType(
    {profile: dataclasses.replace(w, lay=0.0) for profile, w in WEIGHTS.items()}
)

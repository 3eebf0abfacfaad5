"""People as Discord knows them and as storage keeps them (defined with the rest of the
Discord edge in :mod:`.table`; kept here for the features not yet converted)."""

from __future__ import annotations

from .table import participant_of as participant_of

"""The errors of the tournament layer: ``ValueError`` subclasses whose messages quote the input."""

from __future__ import annotations


class TournamentError(ValueError):
    """Tournament data that cannot be paired or scored as given (an unknown player in a result,
    a score other than 1, ½ or 0, a round of the wrong shape)."""


class PairingImpossibleError(TournamentError):
    """No pairing of the present players exists without a repeat pairing (or without a second
    pairing-allocated bye): the organiser has to end the event or allow repeats."""

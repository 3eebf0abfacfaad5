"""The one error the services raise for people: something they did that they can fix."""

from __future__ import annotations


class UserError(Exception):
    """A message for the user who acted: what went wrong and what to do instead (answered to
    them privately by the Discord layer's error funnel)."""

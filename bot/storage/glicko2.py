"""Glicko-2 rating maths (Mark Glickman, "Example of the Glicko-2 system", glicko.net).

Pure functions, no storage. The bot rates **after every game**: each game is its own rating period
of one result, a common choice for game bots (lichess does the same). The consequence is that the
volatility moves slowly and rating deviation does not grow with idle time between games; both are
accepted simplifications for a Discord bot.

Why not the ``glicko2`` PyPI package: its volatility step (``Player._f``) uses the player's *rating*
squared where Glickman's step 5 uses the *deviation* squared. Glickman's worked example starts at
rating 1500, which is 0 on the internal scale, so the package gets close to that example by accident
(its volatility iteration still ends at A = -5.62704 where the paper has -5.62696) and drifts for
every other rating. It also keeps the system constant as a mutable class attribute and has no type
hints. This module follows the paper step by step and is tested against the worked example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glickman's conversion factor between the Glicko scale and the internal Glicko-2 scale."""

DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how fast volatility may change (Glickman suggests 0.3 to 1.2)."""

CONVERGENCE = 1e-6
"""Stopping tolerance of the volatility iteration (step 5), as in the paper."""

PROVISIONAL_RD = 110.0
"""A rating whose deviation is above this is shown as provisional (lichess uses the same bound)."""
FIXED_RD = 50.0
"""The deviation of a fixed rating (the AI's levels): a settled rating, trusted as much as a
regular player's, so a result against it counts fully."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 for a newcomer)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @classmethod
    def fixed(cls, rating: float) -> Rating:
        """A rating that games do not change (the AI's): settled, never provisional."""
        return cls(rating, FIXED_RD)

    @property
    def provisional(self) -> bool:
        """True while the deviation is too high for the rating to mean much."""
        return self.rd > PROVISIONAL_RD

    @property
    def display(self) -> str:
        """The rating as players see it everywhere: whole points, "?" while provisional.

        ``"1500?"`` for a newcomer, ``"1623"`` once the deviation is low enough.
        """
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois (regula falsi) iteration for the new volatility."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """Return ``player``'s rating after one rating period.

    ``results`` pairs each opponent's rating *at the start of the period* with the player's score
    against them (1 win, 0.5 draw, 0 loss). With no results only the deviation grows (step 6).
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, DEFAULT_RD), sigma)

    # Steps 3 and 4: estimated variance and improvement from the game outcomes alone.
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement

    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    # Steps 6 and 7: widen the deviation by the new volatility, then narrow it by the evidence.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    # Step 8, capped so a deviation never exceeds a newcomer's.
    return Rating(new_mu * SCALE + DEFAULT_RATING, min(new_phi * SCALE, DEFAULT_RD), new_sigma)


def rate_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Rate one game as a rating period of its own for both players.

    Both updates use the ratings from *before* the game, so the order of the players is irrelevant.
    """
    return (
        rate(first, [(second, first_score)]),
        rate(second, [(first, 1.0 - first_score)]),
    )

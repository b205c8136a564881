"""Art sets: which four figures a puzzle shows, and how its cards are printed.

Figure ``k`` (1-based) of a set gives code ``+k`` to its top half and ``-k``
to its bottom half. The sets cover what commercial puzzles do: four
different figures in four colours, one figure in four colours (the witch
puzzle's four witches), figures that share colours and differ only in
shape, full-bleed cards with big halves and a decoration in the middle,
printed borders, and worn vintage card.
"""
from __future__ import annotations

from typing import NamedTuple

from .art import PALETTES, Palette


class Figure(NamedTuple):
    """One figure of a set: a kind from `art.KINDS` and its colours."""

    kind: str
    colour: str

    @property
    def palette(self) -> Palette:
        return PALETTES[self.colour]


class Card(NamedTuple):
    """How a set's tiles are printed.

    ``depth``: how far a half reaches into the tile (fraction of the side);
    ``span``: how wide a figure is (fraction of the side);
    ``background``: ``(kind, colour, colour)`` with kind plain, gradient,
    mottled, or meadow (mottled and strewn with leaves and blossoms; colours
    as ``#rrggbb``); ``border``: colour of a printed frame,
    or None; ``decor``: a centre object that belongs to no edge (football,
    snowflake, paw, or None); ``worn``: faded, scratched vintage card;
    ``gloss``: 0..1, how much light the card reflects as glare;
    ``offset``: how far right of the seam's middle a figure stands, upright
    (fraction of the side; cards seldom centre their halves); ``lean``:
    degrees a figure leans across the seam.
    """

    depth: float = 0.3
    span: float = 0.6
    background: tuple = ("gradient", "#f4e9c8", "#d9c48f")
    border: str | None = None
    decor: str | None = None
    worn: bool = False
    gloss: float = 0.5
    offset: float = 0.0
    lean: float = 0.0


class ArtSet(NamedTuple):
    name: str
    figures: tuple
    card: Card
    about: str


def _set(name: str, figures: str, card: Card, about: str) -> ArtSet:
    pairs = tuple(Figure(*f.split(":")) for f in figures.split())
    return ArtSet(name, pairs, card, about)


ART_SETS: dict[str, ArtSet] = {s.name: s for s in (
    _set("witches", "witch:red witch:blue witch:green witch:purple",
         Card(0.35, 0.7, ("gradient", "#1c2357", "#4b2a6e"), border="#d8b44a"),
         "one kind in four colours, like the classic witch puzzle; printed gold border"),
    _set("frogs", "frog:green frog:yellow frog:blue frog:red",
         Card(0.36, 0.8, ("mottled", "#2e7d8a", "#5fb0a0"), offset=-0.07, decor="snowflake", gloss=0.8),
         "four identical frogs that differ only in colour; full-bleed, glossy"),
    _set("critters", "cat:orange fish:blue bird:red frog:green",
         Card(0.36, 0.82, ("mottled", "#5f8f3a", "#9cc25a"), offset=0.08, decor="paw", gloss=0.7),
         "four kinds in four colours; full-bleed with a paw print in the middle"),
    _set("lookalikes", "cat:teal bird:teal fish:orange rocket:orange",
         Card(0.33, 0.68, ("plain", "#f3efe4", "#f3efe4"), border="#3a3a3a"),
         "pairs of figures share colours and differ only in shape; printed border"),
    _set("sports", "car:red rocket:white shield:blue bird:yellow",
         Card(0.34, 0.74, ("gradient", "#9fd3f0", "#e8f4fa"), decor="football", gloss=0.6),
         "vehicles and an emblem; football in the middle of every tile"),
    _set("vintage", "witch:black cat:black car:red shield:white",
         Card(0.32, 0.66, ("gradient", "#e9dcb8", "#cdb98a"), border="#6b4a2a", worn=True, gloss=0.2),
         "worn vintage card: faded, yellowed, scratched, rounded corners"),
    _set("meadow", "bird:blue bird:red cat:black fish:yellow",
         Card(0.37, 0.72, ("meadow", "#3f7a2a", "#86b84a"), offset=0.04, lean=15.0, gloss=0.6),
         "like catalogue tiles: a busy strewn background, big halves leaning across the seam"),
)}

"""Match rules: which edge code fits which.

Every rule is an involution on codes: ``partner(partner(a)) == a``. That is
what lets the search treat all rules alike, as a lookup from the code on one
side of a seam to the code the other side must show.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

Code = Union[int, str]

_INT = re.compile(r"^[+-]?\d+$")


def normalise_code(value: object) -> Code:
    """Return a code as an int when it reads as one, else as a stripped string.

    >>> normalise_code("-4"), normalise_code(" TF "), normalise_code(7)
    (-4, 'TF', 7)
    """
    if isinstance(value, bool):
        raise ValueError(f"code {value!r} is neither a number nor a name")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip():
        text = value.strip()
        return int(text) if _INT.match(text) else text
    raise ValueError(f"code {value!r} is neither a number nor a name")


@dataclass(frozen=True)
class Match:
    """A match rule.

    ``kind`` is ``"signed"`` (a fits -a; a name ``X`` fits ``-X``),
    ``"sum"`` (a fits total-a), ``"same"`` (a fits a) or ``"pairs"`` (the
    listed pairs fit each other).

    >>> Match.parse("sum:9").partner(3)
    6
    >>> Match.parse({"pairs": [["TF", "TB"]]}).partner("TB")
    'TF'
    """

    kind: str = "signed"
    total: int = 0
    pairs: dict = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def parse(cls, spec: object) -> "Match":
        if spec is None or spec == "signed":
            return cls("signed")
        if spec == "same":
            return cls("same")
        if isinstance(spec, str) and spec.startswith("sum:"):
            total = spec[4:].strip()
            if not _INT.match(total):
                raise ValueError(f"match {spec!r}: the total after 'sum:' must be a whole number")
            return cls("sum", total=int(total))
        if isinstance(spec, dict) and set(spec) == {"pairs"}:
            return cls("pairs", pairs=_pair_table(spec["pairs"]))
        raise ValueError(
            f"unknown match rule {spec!r} (use signed, same, sum:K or {{\"pairs\": [[a, b], ...]}})"
        )

    def partner(self, code: Code) -> Code | None:
        """The code that fits ``code``, or None when nothing can."""
        if self.kind == "same":
            return code
        if self.kind == "pairs":
            return self.pairs.get(code)
        if self.kind == "sum":
            return self.total - code if isinstance(code, int) else None
        if isinstance(code, int):
            return -code
        return code[1:] if code.startswith("-") else "-" + code

    def describe(self) -> object:
        """The rule as it is written in a puzzle file."""
        if self.kind == "sum":
            return f"sum:{self.total}"
        if self.kind == "pairs":
            seen, pairs = set(), []
            for a, b in self.pairs.items():
                if a not in seen:
                    seen.update((a, b))
                    pairs.append([a, b])
            return {"pairs": pairs}
        return self.kind


def _pair_table(pairs: object) -> dict:
    if not isinstance(pairs, list) or not pairs:
        raise ValueError("match pairs must be a non-empty list of [a, b] pairs")
    table: dict = {}
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"match pair {pair!r} must list exactly two codes")
        a, b = (normalise_code(c) for c in pair)
        for x, y in ((a, b), (b, a)):
            if table.get(x, y) != y:
                raise ValueError(f"code {x!r} is paired twice in match pairs")
            table[x] = y
    return table

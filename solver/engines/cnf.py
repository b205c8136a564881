"""The seeds' SAT formulation as clauses, and its DIMACS CNF text.

Variable ``i + 1`` is ``model.x[i]``; variables after them are the helpers of
the sequential at-most-one encoding (Sinz 2005), which keeps "one tile per
cell" linear in size where the seeds' pairwise clauses would be quadratic.
A placement implies that its neighbour shows a fitting side (the seeds'
"alternative formulation").
"""
from __future__ import annotations

from .model import Model


def clauses(model: Model) -> tuple[int, list[list[int]]]:
    """The number of variables and the clauses of ``model``.

    Examples
    --------
    >>> from solver.puzzle import Puzzle
    >>> n, cs = clauses(Model(Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)))
    >>> n >= 16, all(cs)
    (True, True)
    """
    out: list[list[int]] = []
    top = [len(model.x)]

    def exactly_one(literals: list[int]) -> None:
        out.append(list(literals))
        if len(literals) <= 6:
            out.extend([-a, -b] for i, a in enumerate(literals) for b in literals[i + 1:])
            return
        carry = []  # carry[i]: one of literals[0..i] is true
        for i, lit in enumerate(literals[:-1]):
            top[0] += 1
            carry.append(top[0])
            out.append([-lit, carry[i]])
            if i:
                out.append([-carry[i - 1], carry[i]])
                out.append([-lit, -carry[i - 1]])
        out.append([-literals[-1], -carry[-1]])

    for group in model.at_cell + model.of_tile:
        exactly_one([i + 1 for i in group])
    fits = model.puzzle.fits
    for a, side_a, b, side_b in model.seams:
        for here, side, there, facing in ((a, side_a, b, side_b), (b, side_b, a, side_a)):
            for i in model.at_cell[here]:
                shown = model.shows(*model.x[i][1:])[side]
                out.append([-(i + 1)] + [j + 1 for j in model.at_cell[there]
                                         if fits(shown, model.shows(*model.x[j][1:])[facing])])
    for first, second in model.before:
        for i in model.of_tile[first]:
            cell = model.x[i][0]
            out.extend([-(i + 1), -(j + 1)] for j in model.of_tile[second] if model.x[j][0] <= cell)
    return top[0], out


def dimacs(model: Model) -> str:
    """``model`` as DIMACS CNF, with comments naming the placement variables."""
    n, cs = clauses(model)
    cols = model.puzzle.cols
    lines = [f"c edgematch: {model.puzzle.name or 'puzzle'} {model.puzzle.rows}x{cols}, "
             "x = tile in cell turned clockwise (1-based rows, cols, tiles)"]
    lines += [f"c x {i + 1} row {cell // cols + 1} col {cell % cols + 1} tile {tile + 1} turn {90 * q}"
              for i, (cell, tile, q) in enumerate(model.x)]
    lines.append(f"p cnf {n} {len(cs)}")
    lines += [" ".join(map(str, c)) + " 0" for c in cs]
    return "\n".join(lines) + "\n"

"""The seeds' MIP formulation as linear rows, and its CPLEX LP text.

Rows: one tile per cell, one cell per tile, and for every seam and every code
``v`` "as many tiles show ``v`` on this side as show its partner on the other"
(with one tile per cell that is the seeds' H and V constraints, for any match
rule, not only ``sum:K``). Identical tiles are ordered by their cell numbers.
"""
from __future__ import annotations

from .model import Model

Row = tuple  # (name, {variable: coefficient}, sense "=" or "<=", right-hand side)


def rows(model: Model) -> list[Row]:
    """The linear rows of ``model``.

    Examples
    --------
    >>> from solver.puzzle import Puzzle
    >>> rs = rows(Model(Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)))
    >>> rs[0][0], rs[0][2:]
    ('cell_1_1', ('=', 1))
    """
    cols = model.puzzle.cols
    out = [(f"cell_{c // cols + 1}_{c % cols + 1}", dict.fromkeys(group, 1), "=", 1)
           for c, group in enumerate(model.at_cell)]
    out += [(f"tile_{t + 1}", dict.fromkeys(group, 1), "=", 1) for t, group in enumerate(model.of_tile)]
    for a, side_a, b, side_b in model.seams:
        for code in model.codes():
            partner = model.puzzle.partner(code)
            row = {i: 1 for i in model.at_cell[a] if model.shows(*model.x[i][1:])[side_a] == code}
            if not row:
                continue
            row.update({j: -1 for j in model.at_cell[b] if model.shows(*model.x[j][1:])[side_b] == partner})
            out.append((f"seam_{a + 1}_{b + 1}_{len(out)}", row, "=", 0))
    for first, second in model.before:
        row = {i: model.x[i][0] for i in model.of_tile[first]}
        for j in model.of_tile[second]:
            row[j] = row.get(j, 0) - model.x[j][0]
        out.append((f"order_{first + 1}_{second + 1}", row, "<=", -1))
    return out


def name(model: Model, i: int) -> str:
    """The LP name of variable ``i``: x_ROW_COL_TILE_TURN, 1-based, turn in degrees."""
    cell, tile, q = model.x[i]
    cols = model.puzzle.cols
    return f"x_{cell // cols + 1}_{cell % cols + 1}_{tile + 1}_{90 * q}"


def lp_text(model: Model) -> str:
    """``model`` in CPLEX LP format (a feasibility problem: the objective is 0)."""
    names = [name(model, i) for i in range(len(model.x))]
    lines = [f"\\ edgematch: {model.puzzle.name or 'puzzle'} {model.puzzle.rows}x{model.puzzle.cols}",
             "Minimize", f" obj: 0 {names[0]}" if names else " obj:", "Subject To"]
    for label, row, sense, rhs in rows(model):
        terms = [f"{'-' if c < 0 else '+'} {abs(c)} {names[i]}" for i, c in row.items() if c]
        terms = terms or [f"0 {names[0]}"]
        # LP readers limit line length: eight terms a line, the rest continue below
        body = "\n   ".join(" ".join(terms[k:k + 8]) for k in range(0, len(terms), 8))
        lines.append(f" {label}: {body} {sense} {rhs}")
    lines.append("Binary")
    lines += [f" {n}" for n in names]
    lines.append("End")
    return "\n".join(lines) + "\n"

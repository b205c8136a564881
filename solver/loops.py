"""The pure search written out as Python: one nested ``for`` loop per level.

A search over fixed tables is a fixed shape of loops, so it is written out
as source once per fill order and compiled by Python itself (as
`dataclasses` writes ``__init__``). Inside one function every laid tile is
a local variable and a level costs one loop, where a function per cell
would cost a call per tile tried: 2-3x faster on a 3x3. Python allows 20
nested loops, so a long fill order is cut into chunks, each a function that
calls the next.

A level lays one or more cells at once from ``table[key]``, whose entries
are ``(need, tile, ...)``: the tiles taken (packed counts, see
`solver.search`) and a turned tile per cell. The key is the sum of
``tile[ask]`` over the level's sources, the tiles already laid beside it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

_CHUNK = 16  # levels per function, under Python's 20 nested blocks


def written(levels: list, cells: int, guards: int) -> Callable:
    """The search over ``levels`` as ``run(taken, nodes, due, keep, tick) -> (nodes, stop)``.

    Parameters
    ----------
    levels : list of ``(cells, table, sources)``
        ``cells`` the cells a level lays, ``table[key]`` their entries,
        ``sources`` the ``(cell, ask)`` pairs summed into the key.
    cells : int
        Cells in the grid: ``keep`` gets one ``(kind, quarters)`` per cell.
    guards : int
        The packed counts' top bits: a level whose ``taken & guards`` is
        not 0 took a tile more than are left.

    The returned function adds each laid cell to ``nodes`` and calls
    ``tick(nodes, depth)`` for the next ``due`` once ``nodes`` passes it;
    it stops when ``keep(choice)`` says so.

    Examples
    --------
    >>> first = [[(0, (0, (0, 0), 1))]]  # key 0: need 0 and a tile whose ask is 1
    >>> second = [(), [(0, (0, (1, 0)))]]  # key 1: the one tile that fits it
    >>> run = written([((0,), first, ()), ((1,), second, ((0, 2),))], cells=2, guards=0)
    >>> run(0, 0, 100, print, None)
    [(0, 0), (1, 0)]
    (2, False)
    """
    chunks = [levels[i:i + _CHUNK] for i in range(0, len(levels), _CHUNK)]
    source, laid = [], []  # laid: the cells of the chunks before, passed on to the next
    for c, chunk in enumerate(chunks):
        source += _chunk(c, chunk, laid, cells, last=c == len(chunks) - 1)
        laid += [cell for level in chunk for cell in level[0]]
    scope: dict = {}
    exec(_compiled("\n".join(source)), scope)
    search = None
    for c in reversed(range(len(chunks))):  # each chunk is made with its tables and the next chunk
        search = scope[f"chunk{c}"](guards, tuple(level[1] for level in chunks[c]), search)
    return search


@lru_cache(maxsize=256)
def _compiled(source: str):
    """Source compiled once: its shape recurs for every puzzle of a grid and fill order,
    and reusing the code keeps what the interpreter learnt running it."""
    return compile(source, "<edgematch search>", "exec")


def _chunk(c: int, chunk: list, laid: list, cells: int, last: bool) -> list:
    """The source of chunk ``c``: its levels as nested loops."""
    args = "".join(f", t{cell}" for cell in laid)
    # tables and guards are the made function's defaults, so its loops read them as locals
    lines = [f"def chunk{c}(guards, tables, then):",
             f"    def search(taken, nodes, due, keep, tick{args}, guards=guards, tables=tables, then=then):",
             "        " + "".join(f"table{i}, " for i in range(len(chunk))) + "= tables"]
    depth, pad = len(laid), "        "
    for i, (level_cells, _, sources) in enumerate(chunk):
        key = " + ".join(f"t{cell}[{ask}]" for cell, ask in sources) or "0"
        tiles = "".join(f", t{cell}" for cell in level_cells)
        depth += len(level_cells)
        lines += [f"{pad}for need{tiles} in table{i}[{key}]:",
                  f"{pad}    taken{i} = {'taken' if i == 0 else f'taken{i - 1}'} + need",
                  f"{pad}    if taken{i} & guards:",
                  f"{pad}        continue",
                  f"{pad}    nodes += {len(level_cells)}",
                  f"{pad}    if nodes > due:",
                  f"{pad}        due = tick(nodes, {depth})"]
        pad += "    "
    taken = f"taken{len(chunk) - 1}"
    if last:
        choice = ", ".join(f"t{cell}[1]" for cell in range(cells))
        lines += [f"{pad}if keep([{choice}]):", f"{pad}    return nodes, True"]
    else:
        passed = "".join(f", t{cell}" for level in chunk for cell in level[0])
        lines += [f"{pad}nodes, stop = then({taken}, nodes, due, keep, tick{args}{passed})",
                  f"{pad}if stop:", f"{pad}    return nodes, True"]
    lines += ["        return nodes, False", "    return search"]
    return lines

"""The compiled search: the backtracking of `solver.search`, run by numba.

The pure search's representation carries over unchanged (kinds of identical
tiles with counts, the pinned turn, candidates keyed by the codes a cell must
show north and west); here it is flattened into arrays:

- candidate lists are split four ways by what the cell's east and south sides
  must show (the border on the last column and last row, free elsewhere), so
  frame cells never look at a candidate that cannot go there;
- when the tiles carry no more border codes than the frame has outer edges,
  every border code must face out, so inner sides never show it;
- the recursion is an explicit stack (per cell: the next candidate and the
  end of its list), so a search stops after a budget of nodes, hands its
  solutions to Python and resumes exactly where it was. Python checks the
  clock, reports progress and catches Ctrl-C between these chunks.

Cores share the work by splitting stacks: a slot that has nothing to do takes
the upper half of the untried candidates at the shallowest open level of a
busy slot. Every subtree is searched exactly once, so counts do not change.

numba is imported only when this module is, which `solver.search` does only
for grids too big for the pure search to be instant.
"""
from __future__ import annotations

import time

import numba
import numpy as np

# the compiled loop's reasons to hand control back
BUDGET, DONE, FULL = 0, 1, 2


class Tables:
    """A `solver.search._Board` flattened for the compiled loop."""

    def __init__(self, board) -> None:
        rows, cols, cells = board.rows, board.cols, board.rows * board.cols
        self.cells, self.cols, self.width = cells, cols, board.any + 2
        self.border = board.border
        self.partner = np.array(board.partner, dtype=np.int32)
        strict = board.border != board.any
        shown = sum(e == board.border for k, edges in enumerate(board.kind_edges)
                    for e in edges for _ in range(board.kinds.count[k]))
        outward = strict and shown <= 2 * (rows + cols)
        lists = []
        for cls in range(4):
            for candidates in board.table:
                lists.append([c for c in candidates if _fits_frame(c, cls, board.border, strict, outward)])
        self.start = np.zeros(len(lists) + 1, dtype=np.int32)
        self.start[1:] = np.cumsum([len(c) for c in lists])
        flat = np.array([c[:5] for cs in lists for c in cs] or np.zeros((0, 5)), dtype=np.int32)
        self.kind, self.quarters = flat[:, 0].copy(), flat[:, 1].copy()
        self.east, self.south = flat[:, 3].copy(), flat[:, 4].copy()
        last_col = np.arange(cells) % cols == cols - 1
        last_row = np.arange(cells) >= cells - cols
        self.cls = (last_col + 2 * last_row).astype(np.int32) if strict else np.zeros(cells, np.int32)
        self.fixed_kind = np.full(cells, -1, dtype=np.int32)
        self.fixed_quarters = np.full(cells, -1, dtype=np.int32)
        for cell, (k, q) in board.fixed.items():
            self.fixed_kind[cell], self.fixed_quarters[cell] = k, q
        self.left = np.array(board.left, dtype=np.int32)

    def args(self) -> tuple:
        return (self.cells, self.cols, self.width, self.border, self.partner, self.start,
                self.kind, self.quarters, self.east, self.south, self.cls,
                self.fixed_kind, self.fixed_quarters)


def _fits_frame(candidate: tuple, cls: int, border: int, strict: bool, outward: bool) -> bool:
    """Whether a candidate's east and south sides suit a cell of class ``cls``."""
    _, _, _, e, s, _ = candidate
    if not strict:
        return True
    for side, on_frame in ((e, cls & 1), (s, cls & 2)):
        if on_frame and side != border or outward and not on_frame and side == border:
            return False
    return True


class Slots:
    """The stacks of the searches running side by side, one per core."""

    def __init__(self, tables: Tables, n: int, capacity: int) -> None:
        cells, kinds = tables.cells, len(tables.left)
        self.depth = np.zeros(n, dtype=np.int32)
        self.base = np.zeros(n, dtype=np.int32)
        self.busy = np.zeros(n, dtype=np.bool_)
        self.pos = np.zeros((n, cells), dtype=np.int32)
        self.end = np.zeros((n, cells), dtype=np.int32)
        self.east = np.zeros((n, cells), dtype=np.int32)
        self.south = np.zeros((n, cells), dtype=np.int32)
        self.kind = np.zeros((n, cells), dtype=np.int32)
        self.quarters = np.zeros((n, cells), dtype=np.int32)
        self.left = np.zeros((n, kinds), dtype=np.int32)
        self.found = np.zeros((n, capacity, cells), dtype=np.int32)
        self.nfound = np.zeros(n, dtype=np.int32)
        self.status = np.zeros(n, dtype=np.int32)
        self.nodes = np.zeros(n, dtype=np.int64)
        # the root task: cell 0 open with its whole candidate list
        key = (tables.cls[0] * tables.width + tables.border) * tables.width + tables.border
        self.pos[0, 0], self.end[0, 0] = tables.start[key], tables.start[key + 1]
        self.left[0] = tables.left
        self.busy[0] = True

    def share(self, fixed_kind: np.ndarray) -> None:
        """Give each idle slot half the untried work of a busy one."""
        for idle in np.flatnonzero(~self.busy):
            donors = [(self._open_level(s), s) for s in np.flatnonzero(self.busy)]
            donors = [(level, s) for level, s in donors if level is not None]
            if not donors:
                return
            level, s = min(donors)
            self._split(s, idle, level, fixed_kind)

    def _open_level(self, s: int) -> int | None:
        """The shallowest level of slot ``s`` with untried candidates to give away."""
        for level in range(self.base[s], self.depth[s] + 1):
            untried = self.end[s, level] - self.pos[s, level]
            if untried >= (2 if level == self.depth[s] else 1):
                return level
        return None

    def _split(self, s: int, t: int, level: int, fixed_kind: np.ndarray) -> None:
        untried = self.end[s, level] - self.pos[s, level]
        middle = self.pos[s, level] + untried // 2
        for a in (self.east, self.south, self.kind, self.quarters):
            a[t, :level] = a[s, :level]
        self.left[t] = self.left[s]
        for cell in range(level, self.depth[s]):  # give back what the donor placed below
            if fixed_kind[cell] < 0:
                self.left[t, self.kind[s, cell]] += 1
        self.pos[t, level], self.end[t, level] = middle, self.end[s, level]
        self.end[s, level] = middle
        self.depth[t] = self.base[t] = level
        self.busy[t] = True


@numba.njit(cache=True, nogil=True)
def _advance(cells, cols, width, border, partner, start, cand_kind, cand_quarters,
             cand_east, cand_south, cls, fixed_kind, fixed_quarters,
             depth, base, pos, end, east, south, kind, quarters, left,
             found, budget):
    """Run one stack for ``budget`` nodes; return (why it stopped, nodes, depth, found)."""
    d = depth
    nodes = 0
    nfound = 0
    capacity = found.shape[0]
    while True:
        if pos[d] == end[d]:  # every candidate tried: back up
            d -= 1
            if d < base:
                return DONE, nodes, d, nfound
            if fixed_kind[d] < 0:
                left[kind[d]] += 1
            continue
        j = pos[d]
        pos[d] = j + 1
        k = cand_kind[j]
        fk = fixed_kind[d]
        if fk < 0:
            if left[k] == 0:
                continue
            left[k] -= 1
        elif fk != k or fixed_quarters[d] != cand_quarters[j]:
            continue
        nodes += 1
        east[d], south[d], kind[d], quarters[d] = cand_east[j], cand_south[j], k, cand_quarters[j]
        d += 1
        if d == cells:
            for c in range(cells):
                found[nfound, c] = 4 * kind[c] + quarters[c]
            nfound += 1
            d -= 1
            if fk < 0:
                left[k] += 1
            if nfound == capacity:
                return FULL, nodes, d, nfound
            continue
        north = partner[south[d - cols]] if d >= cols else border
        west = partner[east[d - 1]] if d % cols else border
        key = (cls[d] * width + north) * width + west
        pos[d], end[d] = start[key], start[key + 1]
        if nodes >= budget:
            return BUDGET, nodes, d, nfound


def _advance_slot(tables_args, slots, s, budget):
    status, nodes, depth, nfound = _advance(
        *tables_args, slots.depth[s], slots.base[s], slots.pos[s], slots.end[s],
        slots.east[s], slots.south[s], slots.kind[s], slots.quarters[s], slots.left[s],
        slots.found[s], budget)
    slots.status[s], slots.nodes[s], slots.depth[s], slots.nfound[s] = status, nodes, depth, nfound


@numba.njit(cache=True, parallel=True)
def _advance_all(cells, cols, width, border, partner, start, cand_kind, cand_quarters,
                 cand_east, cand_south, cls, fixed_kind, fixed_quarters,
                 busy, depth, base, pos, end, east, south, kind, quarters, left,
                 found, nfound, status, nodes, budget):
    """`_advance` on every busy slot at once, one slot per thread."""
    for s in numba.prange(busy.shape[0]):
        if busy[s]:
            status[s], nodes[s], depth[s], nfound[s] = _advance(
                cells, cols, width, border, partner, start, cand_kind, cand_quarters,
                cand_east, cand_south, cls, fixed_kind, fixed_quarters,
                depth[s], base[s], pos[s], end[s], east[s], south[s], kind[s], quarters[s],
                left[s], found[s], budget)
        else:
            nodes[s], nfound[s] = 0, 0


def search(board, keep, watch, capacity: int = 256, workers: int | None = None) -> bool:
    """Run ``board``'s search compiled; same contract as `_Board.search`.

    ``keep(choice)`` receives each solution as a list of (kind, quarters)
    and returns True to stop; ``watch`` checks the clock and reports
    progress between chunks. Returns True when the search ran to the end.
    """
    tables = Tables(board)
    n = workers or numba.get_num_threads()
    slots = Slots(tables, n, capacity)
    args = tables.args()
    budget = 1 << 20
    while slots.busy.any():
        slots.share(tables.fixed_kind)
        started = time.perf_counter()
        if n == 1:
            _advance_slot(args, slots, 0, budget)
        else:
            _advance_all(*args, slots.busy, slots.depth, slots.base, slots.pos, slots.end,
                         slots.east, slots.south, slots.kind, slots.quarters, slots.left,
                         slots.found, slots.nfound, slots.status, slots.nodes, budget)
        board.nodes += int(slots.nodes[slots.busy].sum())
        for s in np.flatnonzero(slots.busy):
            for code in slots.found[s, :slots.nfound[s]]:
                if keep([divmod(int(c), 4) for c in code]):
                    return False
        slots.busy &= slots.status != DONE
        if watch.check(board.nodes, int(slots.depth.max()) + 1):
            return False
        # aim for about a tenth of a second per chunk
        spent = time.perf_counter() - started
        budget = int(min(max(budget * 0.1 / max(spent, 1e-4), 1 << 16), 1 << 26))
    return True

"""The compiled search: the backtracking of `solver.search`, run by numba.

The pure search's representation carries over unchanged (kinds of identical
tiles with counts, the pinned turn, candidates keyed by the codes a cell must
show north and west); here it is flattened into arrays:

- candidate lists are split four ways by what the cell's east and south sides
  must show (the border on the last column and last row, free elsewhere), so
  frame cells never look at a candidate that cannot go there;
- when the tiles carry no more border codes than the frame has outer edges,
  every border code must face out, so inner sides never show it;
- then, too, the inner tiles left must show enough of each colour (a code
  and its partner): ``slack[c]`` counts the sides of colour ``c`` on the
  inner tiles left, less those that seams to placed tiles and the inward
  sides of the edge tiles left will take. The rest go to seams between
  inner cells not yet filled, two sides each, so on the way to a solution
  it never falls below zero. Only an inner tile that opens a seam to an
  inner cell below or right of it changes it (every other change cancels
  out), and a tile that would take it below zero is not laid;
- cells are laid in an order where each is looked up by its north and west
  sides only (`fill_order`): row by row on a framed board, in square shells
  from a corner on a board with no frame;
- a hint cell looks its candidates up in lists of its own, holding only the
  hint's tile and turn as a kind of one copy, so the loop never asks
  whether a cell is a hint;
- the recursion is an explicit stack (per cell: the next candidate and the
  end of its list), so a search stops after a budget of nodes, hands its
  solutions to Python and resumes exactly where it was. Python checks the
  clock, reports progress and catches Ctrl-C between these chunks.

Cores share the work by splitting stacks: a slot that has nothing to do takes
the upper half of the untried candidates at the shallowest open level of a
busy slot. Every subtree is searched exactly once, so counts do not change.
The first chunk runs on one core, so small trees end before threads start.

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
    """A `solver.search._Board` flattened for the compiled loop.

    Candidate ``j`` is the row ``candidate[j] = (kind, quarters, below,
    right, south colour, east colour)``: ``below`` and ``right`` are the
    parts of the keys that the cells under it and right of it will look up,
    so the loop never consults the partner table; the colours index
    ``slack``. Cell ``d`` looks up ``start[key]:start[key + 1]`` with
    ``key = frame[d] + below(above[d]) + right(before[d])``; cells on the top
    row and left column see a last, virtual cell whose candidate shows the
    border, so the loop has no special case for them. ``frame[d]`` picks a
    block of lists: one per frame class, then one per hint cell, whose
    candidates are the hint alone, as kind ``kinds + h`` (`kind_of` maps it
    back), with a count of one.
    """

    def __init__(self, board) -> None:
        rows, cols, cells = board.rows, board.cols, board.rows * board.cols
        width = board.any + 2
        self.cells, self.cols = cells, cols
        strict = board.border != board.any
        shown = sum(e == board.border for k, edges in enumerate(board.kind_edges)
                    for e in edges for _ in range(board.kinds.count[k]))
        outward = strict and shown <= 2 * (rows + cols)
        order = fill_order(rows, cols, framed=strict)
        # arrays per level are indexed by d, the d-th cell laid; `level` maps a cell to its level
        self.level = np.empty(cells, dtype=np.int64)
        self.level[order] = np.arange(cells)
        row, col = np.divmod(order, cols)
        cls = (col == cols - 1) + 2 * (row == rows - 1) if strict else np.zeros(cells, int)
        lists = [[c for c in candidates if _fits_frame(c, k, board.border, strict, outward)]
                 for k in range(4) for candidates in board.table]
        kinds, hints = len(board.left), sorted(board.fixed.items())
        self.kind_of = np.array(list(range(kinds)) + [kind for _, (kind, _) in hints], dtype=np.int64)
        self.left = np.array(list(board.left) + [1] * len(hints), dtype=np.int32)
        block = cls * width * width
        for h, (cell, hint) in enumerate(hints):
            d = self.level[cell]
            block[d] = len(lists)
            lists += [[(kinds + h,) + candidate[1:] for candidate in candidates if candidate[:2] == hint]
                      for candidates in lists[cls[d] * width * width:(cls[d] + 1) * width * width]]
        self.start = np.zeros(len(lists) + 1, dtype=np.int32)
        self.start[1:] = np.cumsum([len(c) for c in lists])
        partner = board.partner
        colour = [min(c, partner[c]) for c in range(width)]
        rows_ = [(k, q, partner[s] * width, partner[e], colour[s], colour[e])
                 for cs in lists for k, q, n, e, s, w in cs]
        rows_.append((-1, 0, board.border * width, board.border, 0, 0))  # the virtual cell's
        self.candidate = np.array(rows_, dtype=np.int32)
        self.above = np.where(row > 0, self.level[order - cols * (row > 0)], cells).astype(np.int32)
        self.before = np.where(col > 0, self.level[order - (col > 0)], cells).astype(np.int32)
        self.frame = block.astype(np.int32)
        seams, self.slack = _seams(board, outward, colour)
        self.seams = seams[order]

    def args(self) -> tuple:
        return (self.cells, self.start, self.candidate, self.frame, self.above, self.before, self.seams)

    def first_key(self) -> int:
        return int(self.frame[0] + self.candidate[-1, 2] + self.candidate[-1, 3])


def fill_order(rows: int, cols: int, framed: bool) -> np.ndarray:
    """The cells in the order the kernel lays them.

    Every cell is looked up by the sides it shares with cells laid before
    it, and these are only ever its north and west sides, so one (north,
    west) table serves any such order. A framed board is filled row by row:
    its frame already fixes the first row's north sides. With no frame, a
    row scan lays a whole first row looked up by one side each before any
    cell closes a seam, so it grows square shells out of the corner instead,
    each down its new column and then along its new row: only the first
    cell of each shell has one side looked up.

    >>> fill_order(3, 3, framed=False).tolist()
    [0, 1, 3, 4, 2, 5, 6, 7, 8]
    """
    if framed:
        return np.arange(rows * cols)
    order = []
    for k in range(max(rows, cols)):
        if k < cols:
            order += [r * cols + k for r in range(min(k, rows))]
        if k < rows:
            order += [k * cols + c for c in range(min(k + 1, cols))]
    return np.array(order)


def _seams(board, outward: bool, colour: list) -> tuple:
    """Per cell where ``slack`` is kept for its south and east sides, and its start.

    ``seams[d, :2]`` holds 0 for a side (south, east) of cell ``d`` that opens
    a seam between two inner cells, else an offset past the colours into
    entries too large ever to run short; ``seams[d, 2]`` is 1 when either
    does, so the loop skips the other cells. ``slack`` counts every tile,
    hints too (they are laid like the rest).
    """
    rows, cols, border, width = board.rows, board.cols, board.border, board.any + 2
    slack = np.full(2 * width, 1 << 30, dtype=np.int32)
    slack[:width] = 0
    seams = np.full((rows * cols, 3), (width, width, 0), dtype=np.int32)
    kinds = [[i for i, e in enumerate(edges) if e == border] for edges in board.kind_edges]
    # each tile an inner one, an edge tile or a corner, so it fits the frame one way only
    if not outward or any(len(b) > 2 or len(b) == 2 and (b[1] - b[0]) % 2 == 0 for b in kinds):
        return seams, slack
    for edges, out, count in zip(board.kind_edges, kinds, board.kinds.count):
        if not out:  # an inner tile: its four sides
            for e in edges:
                slack[colour[e]] += count
        elif len(out) == 1:  # an edge tile's inward side meets an inner tile
            slack[colour[edges[(out[0] + 2) % 4]]] -= count
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            seams[r * cols + c] = (0 if r < rows - 2 else width, 0 if c < cols - 2 else width, 1)
    return seams, slack


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
    """The stacks of the searches running side by side, one per core.

    A stack is ``pos``: for each cell below ``depth`` the candidate after the
    one placed there (so ``pos - 1`` is the choice), for the open cell
    ``depth`` the next one to try; ``end`` closes each cell's list.
    ``below`` and ``right`` keep each placed cell's key parts (the virtual
    cell's last), so a key costs two loads, not four.
    """

    def __init__(self, tables: Tables, n: int, capacity: int) -> None:
        cells, kinds = tables.cells, len(tables.left)
        self.depth = np.zeros(n, dtype=np.int64)
        self.base = np.zeros(n, dtype=np.int64)
        self.busy = np.zeros(n, dtype=np.bool_)
        self.pos = np.zeros((n, cells), dtype=np.int32)
        self.end = np.zeros((n, cells), dtype=np.int32)
        self.below = np.zeros((n, cells + 1), dtype=np.int32)
        self.right = np.zeros((n, cells + 1), dtype=np.int32)
        self.below[:, cells], self.right[:, cells] = tables.candidate[-1, 2:4]
        self.left = np.zeros((n, kinds), dtype=np.int32)
        self.slack = np.zeros((n, len(tables.slack)), dtype=np.int32)
        self.found = np.zeros((n, capacity, cells), dtype=np.int32)
        self.nfound = np.zeros(n, dtype=np.int64)
        self.status = np.zeros(n, dtype=np.int64)
        self.nodes = np.zeros(n, dtype=np.int64)
        self.full = np.zeros(1, dtype=np.int64)  # set by a stack whose `found` filled up
        key = tables.first_key()  # the root task: cell 0 open with its whole list
        self.pos[0, 0], self.end[0, 0] = tables.start[key], tables.start[key + 1]
        self.left[0] = tables.left
        self.slack[0] = tables.slack
        self.busy[0] = True

    def share(self, tables: Tables) -> None:
        """Give each idle slot half the untried work of a busy one."""
        for idle in np.flatnonzero(~self.busy):
            donors = [(self._open_level(s), s) for s in np.flatnonzero(self.busy)]
            donors = [(level, s) for level, s in donors if level is not None]
            if not donors:
                return
            level, s = min(donors)
            self._split(s, idle, level, tables)

    def _open_level(self, s: int) -> int | None:
        """The shallowest level of slot ``s`` with untried candidates to give away."""
        for level in range(self.base[s], self.depth[s] + 1):
            untried = self.end[s, level] - self.pos[s, level]
            if untried >= (2 if level == self.depth[s] else 1):
                return level
        return None

    def _split(self, s: int, t: int, level: int, tables: Tables) -> None:
        untried = self.end[s, level] - self.pos[s, level]
        middle = self.pos[s, level] + untried // 2
        self.pos[t, :level], self.end[t, :level] = self.pos[s, :level], self.end[s, :level]
        self.below[t, :level], self.right[t, :level] = self.below[s, :level], self.right[s, :level]
        self.left[t], self.slack[t] = self.left[s], self.slack[s]
        for cell in range(level, self.depth[s]):  # give back what the donor placed below
            chosen = tables.candidate[self.pos[s, cell] - 1]
            self.left[t, chosen[0]] += 1
            if tables.seams[cell, 2]:
                for side in range(2):  # south, east
                    self.slack[t, chosen[4 + side] + tables.seams[cell, side]] += 2
        self.pos[t, level], self.end[t, level] = middle, self.end[s, level]
        self.end[s, level] = middle
        self.depth[t] = self.base[t] = level
        self.busy[t] = True


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _advance(cells, start, candidate, frame, above, before, seams,
             depth, base, pos, end, below, right, left, slack, found, budget, full):
    """Run one stack for ``budget`` nodes; return (why it stopped, nodes, depth, found).

    A stack that fills its ``found`` sets ``full[0]``, and the others then
    stop soon too, so a first solution is not kept waiting for the rest.
    """
    d = depth
    j, stop, opens = pos[d], end[d], seams[d, 2]
    nodes = 0
    nfound = 0
    capacity = found.shape[0]
    while True:
        if j == stop:  # every candidate tried: back up
            d -= 1
            if d < base:
                return DONE, nodes, d, nfound
            j, stop, opens = pos[d], end[d], seams[d, 2]
            left[candidate[j - 1, 0]] += 1
            if opens:
                slack[candidate[j - 1, 4] + seams[d, 0]] += 2
                slack[candidate[j - 1, 5] + seams[d, 1]] += 2
            continue
        k = candidate[j, 0]
        if left[k] == 0:
            j += 1
            continue
        if opens:  # the inner tiles left must still show the colours of the inner seams it opens
            s, e = candidate[j, 4] + seams[d, 0], candidate[j, 5] + seams[d, 1]
            slack[s] -= 2
            slack[e] -= 2
            if slack[s] < 0 or slack[e] < 0:
                slack[s] += 2
                slack[e] += 2
                j += 1
                continue
        left[k] -= 1
        nodes += 1
        below[d], right[d] = candidate[j, 2], candidate[j, 3]
        j += 1
        pos[d], end[d] = j, stop
        if d + 1 == cells:
            for c in range(cells):
                found[nfound, c] = 4 * candidate[pos[c] - 1, 0] + candidate[pos[c] - 1, 1]
            nfound += 1
            left[k] += 1
            if opens:
                slack[s] += 2
                slack[e] += 2
            if nfound == capacity:
                full[0] = 1
                return FULL, nodes, d, nfound
            continue
        d += 1
        key = frame[d] + below[above[d]] + right[before[d]]
        j, stop, opens = start[key], start[key + 1], seams[d, 2]
        if nodes >= budget or (nodes & 4095) == 0 and full[0]:
            pos[d], end[d] = j, stop
            return BUDGET, nodes, d, nfound


def _advance_slot(tables_args, slots, s, budget):
    status, nodes, depth, nfound = _advance(
        *tables_args, slots.depth[s], slots.base[s], slots.pos[s], slots.end[s], slots.below[s],
        slots.right[s], slots.left[s], slots.slack[s], slots.found[s], budget, slots.full)
    slots.status[s], slots.nodes[s], slots.depth[s], slots.nfound[s] = status, nodes, depth, nfound


@numba.njit(cache=True, parallel=True)
def _advance_all(cells, start, candidate, frame, above, before, seams, busy, depth,
                 base, pos, end, below, right, left, slack, found, nfound, status, nodes, budget, full):
    """`_advance` on every busy slot at once, one slot per thread."""
    for s in numba.prange(busy.shape[0]):
        if busy[s]:
            status[s], nodes[s], depth[s], nfound[s] = _advance(
                cells, start, candidate, frame, above, before, seams, depth[s], base[s],
                pos[s], end[s], below[s], right[s], left[s], slack[s], found[s], budget, full)
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
    # a first short chunk on one core: small trees end there, before threads start
    budget, alone = 1 << 16, True
    while slots.busy.any():
        started = time.perf_counter()
        slots.full[0] = 0
        if n == 1 or alone:
            _advance_slot(args, slots, 0, budget)
            alone = False
        else:
            slots.share(tables)
            _advance_all(*args, slots.busy, slots.depth, slots.base, slots.pos, slots.end, slots.below,
                         slots.right, slots.left, slots.slack, slots.found, slots.nfound, slots.status,
                         slots.nodes, budget, slots.full)
        board.nodes += int(slots.nodes[slots.busy].sum())
        for s in np.flatnonzero(slots.busy):
            for code in slots.found[s, :slots.nfound[s]]:
                if keep([(int(tables.kind_of[c >> 2]), int(c & 3)) for c in code[tables.level]]):
                    return False
        slots.busy &= slots.status != DONE
        if watch.check(board.nodes, int(slots.depth.max()) + 1):
            return False
        # aim for about a tenth of a second per chunk
        spent = time.perf_counter() - started
        budget = int(min(max(budget * 0.1 / max(spent, 1e-4), 1 << 16), 1 << 26))
    return True

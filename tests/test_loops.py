"""The search written out as loops: levels, keys, counts, chunks and the clock."""
import pytest

from solver import loops


def chain(cells: int) -> list:
    """A level per cell, each with two tiles: one that the next cell fits, one that it does not.

    A tile is ``(need, (cell, quarters), ask)``; cell i is looked up by cell i - 1's ask.
    """
    fits, dead = 1, 2
    levels = []
    for cell in range(cells):
        ways = [(0, (0, (cell, 0), fits)), (0, (0, (cell, 1), dead))]
        table = [ways] if cell == 0 else [(), ways, ()]
        levels.append(((cell,), table, () if cell == 0 else ((cell - 1, 2),)))
    return levels


@pytest.mark.parametrize("cells", [3, loops._CHUNK + 1, 3 * loops._CHUNK + 2])
def test_every_cell_of_a_long_chain_reaches_keep(cells):
    kept = []
    run = loops.written(chain(cells), cells, guards=0)
    nodes, stop = run(0, 0, 10 ** 9, lambda choice: kept.append(choice), None)
    assert kept == [[(cell, 0) for cell in range(cells)], [(cell, 0) for cell in range(cells - 1)] + [(cells - 1, 1)]]
    assert (nodes, stop) == (2 * cells, False)


def test_keep_stops_the_search_across_chunks():
    cells = 2 * loops._CHUNK + 1
    run = loops.written(chain(cells), cells, guards=0)
    assert run(0, 0, 10 ** 9, lambda choice: True, None) == (cells, True)  # the first dive


def test_taken_past_the_guard_is_not_laid():
    levels = chain(3)
    levels[1] = ((1,), [(), [(0b10, (0, (1, 0), 1)), (1, (0, (1, 1), 1))], ()], ((0, 2),))
    kept = []
    loops.written(levels, 3, guards=0b10)(0, 0, 10 ** 9, kept.append, None)
    assert [choice[1] for choice in kept] == [(1, 1), (1, 1)]


def test_the_clock_is_asked_once_due_and_may_stop_the_search():
    class Stop(Exception):
        pass

    asked = []

    def tick(nodes, depth):
        asked.append((nodes, depth))
        if len(asked) == 3:
            raise Stop
        return nodes + 5

    cells = loops._CHUNK + 4
    with pytest.raises(Stop):
        loops.written(chain(cells), cells, guards=0)(0, 0, 4, lambda choice: False, tick)
    # on the first dive each node is one cell deeper; the third is past the first chunk
    assert asked == [(5, 5), (11, 11), (17, 17)]

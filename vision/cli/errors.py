"""Errors the CLI turns into one line on stderr and an exit code (SPEC.md)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver import Puzzle


class InputError(Exception):
    """Unreadable input or bad usage: exit 2. The message names the file."""

    exit_code = 2


class NotRecognised(Exception):
    """A photo was read but no puzzle was recognised in it: exit 3."""

    exit_code = 3


def read_puzzle(name: str) -> Puzzle:
    """`solver.formats.load_puzzle` of ``name``, its errors as `InputError`."""
    from solver.formats import PuzzleError, load_puzzle  # when asked: a photo needs no YAML reader (10 ms)

    try:
        return load_puzzle(name)
    except PuzzleError as error:
        raise InputError(str(error)) from None

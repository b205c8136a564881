"""Errors the CLI turns into one line on stderr and an exit code (SPEC.md)."""
from __future__ import annotations


class InputError(Exception):
    """Unreadable input or bad usage: exit 2. The message names the file."""

    exit_code = 2


class NotRecognised(Exception):
    """A photo was read but no puzzle was recognised in it: exit 3."""

    exit_code = 3

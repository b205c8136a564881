"""What a command line says is coming, started before the command itself loads.

`edgematch solve PHOTO` spends its first tenth of a second importing click
and the solve command's modules, none of which the photo needs: the photo
named is decoded meanwhile (`photo_ahead`), on a thread, while they load.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import Future

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp", ".bmp", ".gif", ".heic", ".heif"}
# `solve`'s options that take a value: the value is no input (a guess gone wrong costs one decode)
VALUED = {"--out", "--library", "--timeout", "--engine"}


def is_photo(name: str) -> bool:
    """True for the image files `solve` reads as photos or scans."""
    return Path(name).suffix.lower() in PHOTO_SUFFIXES


def photo_ahead(args: list[str]) -> dict[str, Future]:
    """The first photo a `solve` command line names, its decoding started: {name: future}.

    OpenCV's Lab tables start filling first (`vision.lab.ready_lab`), as
    `solve` would start them. Any other command line starts nothing: {}.

    >>> photo_ahead(["solve", "puzzle.json", "--engine", "sat"]), photo_ahead(["detect", "x.jpg"])
    ({}, {})
    """
    if not args or args[0] != "solve":
        return {}
    valued = False
    for arg in args[1:]:
        if valued or arg in VALUED or arg.startswith("-"):
            valued = arg in VALUED
            continue
        if is_photo(arg):
            from ..lab import ready_lab  # OpenCV first: its Lab tables are the longest wait

            ready_lab()
            from ..images import read_ahead

            return {arg: read_ahead(arg)}
    return {}

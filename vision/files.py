"""Files written whole or not at all.

Everything edgematch writes for a person (answers, images, libraries,
renders, exports) goes through `write_atomic`, so an interrupted run never
leaves half a file and never loses the one that was there.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .cli.errors import InputError


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` in one step: the file is whole or as it was.

    The bytes go to a hidden temporary file in the same folder, readable like
    any other file, which then replaces ``path``. Whatever stops the write
    (an error, Ctrl-C) removes the temporary file and leaves ``path`` alone.

    Raises
    ------
    InputError
        One line naming the file when it cannot be written.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "answer.json", b"{}")
    >>> (folder / "answer.json").read_bytes(), len(list(folder.iterdir()))
    (b'{}', 1)
    """
    path = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise InputError(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        os.fchmod(handle, 0o644)  # mkstemp's 0600 would hide the file from others
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise InputError(f"{path}: cannot write: {error.strerror or error}") from None
        raise

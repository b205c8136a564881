"""`edgematch solve`: typed-in puzzles and photos. (Being built: issue 2 / 4.)"""
from __future__ import annotations

import click


@click.command()
@click.argument("inputs", nargs=-1, required=True)
def solve(inputs: tuple) -> int:
    """Solve puzzle files, photos or scans (- reads a puzzle from stdin)."""
    raise click.UsageError("solve is not built yet")

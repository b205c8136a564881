"""The `edgematch` click group: each command is the function of that name in the module of that name.

Loaded by `vision.cli.main` once the photo a `solve` names is being decoded
(`vision.cli.ahead`): click takes some 20 ms to import.
"""
from __future__ import annotations

import importlib

import click

COMMANDS = ("solve", "detect", "label", "render", "export", "generate")


class _LazyGroup(click.Group):
    """Imports a command's module only when that command runs.

    Solving a typed-in puzzle then never loads the renderer or the outside
    engines, which keeps a small puzzle's whole run quick (click's docs,
    "Lazily Loading Subcommands").
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return getattr(importlib.import_module(f".{name}", __package__), name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="edgematch")
def cli() -> None:
    """Solve edge-matching tile puzzles from a photo or from typed-in codes."""

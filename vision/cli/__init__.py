"""The `edgematch` command: a thin layer over the `solver` and `vision` APIs.

Every command lives in a module of its own here. `main` is the entry point:
it turns every failure into one line on stderr and the exit code of SPEC.md,
so no input, however broken, shows a traceback.
"""
from __future__ import annotations

import importlib
import os
import sys

import click

from .errors import InputError, NotRecognised


# each command is the function of that name in the module of that name
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
        return getattr(importlib.import_module(f".{name}", __name__), name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="edgematch")
def cli() -> None:
    """Solve edge-matching tile puzzles from a photo or from typed-in codes."""


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return (and exit with) the SPEC.md exit code."""
    # Before a command loads numpy: its OpenBLAS would start a thread per core, and the
    # commands' matrices are small (a table's colour ramps, edge histograms), so those
    # threads spin far more CPU than they save (a 12 MP photo: 40 ms of 0.6 s; same answers).
    # Set here, not on import, so a program that only imports edgematch keeps its own setting.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        code = cli.main(args=argv, prog_name="edgematch", standalone_mode=False)
    except click.exceptions.Exit as done:
        code = done.exit_code
    except click.Abort:
        click.echo("edgematch: interrupted", err=True)
        code = 130
    except click.ClickException as error:
        click.echo(f"edgematch: {error.format_message()}", err=True)
        code = error.exit_code
    except (InputError, NotRecognised) as error:
        click.echo(f"edgematch: {error}", err=True)
        code = error.exit_code
    except KeyboardInterrupt:
        click.echo("edgematch: interrupted", err=True)
        code = 130
    except Exception as error:  # the promise: never a traceback
        click.echo(f"edgematch: internal error: {type(error).__name__}: {error}", err=True)
        code = 2
    if argv is None:  # the process is the command (`edgematch`, ``python -m vision.cli``)
        _end_process(code or 0)
    sys.exit(code or 0)


def _end_process(code: int) -> None:
    """End the command's process now, its output flushed, skipping the interpreter's teardown.

    Tearing down numpy, OpenCV and every module's objects costs a 12 MP
    photo's solve about 0.05 s of CPU after the answer is out (some 5% of
    it), for nothing a user sees: files are written and closed by then,
    and the command leaves no thread or child process running. Only for
    the command itself (`main` called with no arguments); a caller in the
    same process gets `SystemExit` as before.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more reaches it
            pass
    os._exit(code)

"""The `edgematch` command: a thin layer over the `solver` and `vision` APIs.

Every command lives in a module of its own here. `main` is the entry point:
it turns every failure into one line on stderr and the exit code of SPEC.md,
so no input, however broken, shows a traceback.
"""
from __future__ import annotations

import sys

import click

from .errors import InputError, NotRecognised


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="edgematch")
def cli() -> None:
    """Solve edge-matching tile puzzles from a photo or from typed-in codes."""


def _register() -> None:
    from .detect import detect
    from .export import export
    from .generate import generate
    from .label import label
    from .render import render
    from .solve import solve

    for command in (solve, detect, label, render, export, generate):
        cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return (and exit with) the SPEC.md exit code."""
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
    sys.exit(code or 0)

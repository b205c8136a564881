"""The `edgematch` command: a thin layer over the `solver` and `vision` APIs.

Every command lives in a module of its own here. `main` is the entry point:
it turns every failure into one line on stderr and the exit code of SPEC.md,
so no input, however broken, shows a traceback.
"""
from __future__ import annotations

import os
import sys

from .ahead import photo_ahead
from .errors import InputError, NotRecognised


def __getattr__(name: str):
    """`cli`, the click group, loaded when first asked for: `main` starts a photo's decode before click loads."""
    if name == "cli":
        from .commands import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return (and exit with) the SPEC.md exit code."""
    # Before a command loads numpy: its OpenBLAS would start a thread per core, and the
    # commands' matrices are small (a table's colour ramps, edge histograms), so those
    # threads spin far more CPU than they save (a 12 MP photo: 40 ms of 0.6 s; same answers).
    # Set here, not on import, so a program that only imports edgematch keeps its own setting.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # OpenCV logs a broken file's details to stderr itself; the one line the CLI prints says it all
    os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
    # The photo a `solve` names is decoded while click and the command load (`ahead`).
    ahead = photo_ahead(sys.argv[1:] if argv is None else list(argv))
    import click

    from .commands import cli

    try:
        code = cli.main(args=argv, prog_name="edgematch", standalone_mode=False, obj=ahead)
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
    if ahead:  # a process that ends while OpenCV still fills its Lab tables aborts (bad usage)
        from ..lab import ready_lab

        ready_lab().join()
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

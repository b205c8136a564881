"""`edgematch solve`: solve puzzle files (and photos), print the answer, exit 0/1/2.

Each input becomes one answer document (`report.solution_json`); the command
prints them for people (`report.human_text`) or as JSON, and exits with the
worst input's code. `answer` picks the reader by input; a reader returns the
document, so a new kind of input is one more branch there.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

import solver

from ..files import write_atomic
from .ahead import is_photo
from .errors import InputError, NotRecognised, read_puzzle
from .report import exit_code, human_text, json_text, solution_json

if TYPE_CHECKING:
    from concurrent.futures import Future

ENGINES = ("builtin", "cp-sat", "sat", "mip")


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--all", "find_all", is_flag=True, help="Find every distinct solution, not just the first.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document on stdout (a list when there are several inputs).")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Also write the JSON answer to this file; for a photo, an image name "
                   "(.png, .jpg) gets the annotated answer instead.")
@click.option("--library", type=click.Path(file_okay=False), help="Template library for reading photos.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Stop searching after this many seconds, with what was found.")
@click.option("--engine", type=click.Choice(ENGINES), default="builtin", show_default=True,
              help="Search engine for puzzle files; the others need the 'bench' extras.")
def solve(inputs: tuple, find_all: bool, as_json: bool, out: str | None, library: str | None,
          timeout: float | None, engine: str) -> int:
    """Solve puzzle files, photos or scans; - reads a puzzle from stdin.

    Exit status: 0 solved, 1 no arrangement fits, 2 unreadable input,
    3 no puzzle recognised in a photo (the highest over all inputs).
    """
    if engine != "builtin" and any(map(is_photo, inputs)):
        raise click.UsageError(f"--engine {engine} solves puzzle files; a photo's reading is solved by the"
                               " built-in search (solve --json lists the codes read, to type in)")
    if out and is_photo(out) and sum(map(is_photo, inputs)) > 1:
        raise click.UsageError(f"--out {out} is one image, for one photo: leave it out and each answer"
                               " is written beside its photo")
    options = dict(find_all=find_all, library=library, timeout=timeout, engine=engine, out=out)
    ahead = click.get_current_context().obj or {}  # photos being decoded already (`vision.cli.ahead`)
    documents, code = [], 0
    for name in inputs:
        try:
            document = answer(name, decoding=ahead.pop(name, None), **options)
        except (InputError, NotRecognised) as error:
            if len(inputs) == 1:
                raise
            click.echo(f"edgematch: {error}", err=True)
            document, code = {"input": name, "error": str(error)}, max(code, error.exit_code)
        else:
            for warning in document.get("warnings", []):
                click.echo(f"edgematch: {name}: {warning}", err=True)
            code = max(code, exit_code(document))
            if not as_json:
                click.echo(("\n" if documents else "") + human_text(document))
        documents.append(document)
        if document.get("interrupted"):
            break
    result = documents[0] if len(documents) == 1 else documents
    if as_json:
        click.echo(json_text(result))
    if out and not is_photo(out):  # a photo's --out is its annotated image
        write_json(out, result)
    if documents[-1].get("interrupted"):
        raise click.Abort()  # after saying what was found: "edgematch: interrupted", exit 130
    return code


def answer(name: str, *, find_all: bool, library: str | None, timeout: float | None,
           engine: str, out: str | None = None, decoding: Future | None = None) -> dict:
    """The answer document for one input; bad input raises `InputError`. ``decoding``: the
    photo ``name`` being read already (`vision.images.read_ahead`)."""
    if is_photo(name):
        from ..images import read_ahead, ready_lab

        # OpenCV's Lab tables fill on one core and the photo is decoded on the other while
        # the photo path imports (it holds the Python lock, they do not)
        lab, decoding = ready_lab(), read_ahead(name) if decoding is None else decoding
        try:
            from ..pipeline import solve_photo

            return solve_photo(name, library=library, all=find_all, timeout=timeout,
                               out=out if out and is_photo(out) else None, decoding=decoding)
        finally:
            lab.join()  # a process that exits while OpenCV still fills them aborts (a missing photo)
    puzzle = read_puzzle(name)
    result = search(puzzle, engine, find_all=find_all, timeout=timeout, label=name)
    return solution_json(name, puzzle, result)


def search(puzzle: solver.Puzzle, engine: str = "builtin", *, find_all: bool = False,
           timeout: float | None = None, label: str = "") -> solver.Result:
    """Run ``engine`` on ``puzzle``; the built-in search reports progress on stderr."""
    if engine == "builtin":
        progress = _Progress(label)
        try:
            return solver.solve(puzzle, all=find_all, timeout=timeout, progress=progress)
        finally:
            progress.done()
    try:
        from solver.engines import solve as engine_solve

        return engine_solve(puzzle, engine, all=find_all, timeout=timeout)
    except ImportError as missing:
        raise InputError(f"--engine {engine} is not available: {missing} "
                         "(install the extras: pip install 'edgematch[bench]')") from None


class _Progress:
    """Progress of a long search on stderr: one line, rewritten in place on a terminal."""

    def __init__(self, label: str) -> None:
        self.label, self.shown, self.tty = label, False, sys.stderr.isatty()

    def __call__(self, nodes: int, depth: int, solutions: int, seconds: float) -> None:
        rate = nodes / seconds if seconds > 0 else 0
        line = (f"{self.label}: {seconds:.0f} s, {nodes:,} nodes ({rate:,.0f}/s), depth {depth}, "
                f"{solutions} solution{'' if solutions == 1 else 's'}")
        click.echo("\r" + line if self.tty else line, err=True, nl=not self.tty)
        self.shown = True

    def done(self) -> None:
        if self.shown and self.tty:
            click.echo("", err=True)


def write_json(path: str, document: object) -> None:
    """Write ``document`` to ``path`` atomically: a half-written answer never replaces a file."""
    write_atomic(path, (json_text(document) + "\n").encode("utf-8"))

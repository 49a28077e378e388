"""The ``bastion`` parser and the dispatch of every verb but ``hook`` (which
``cli.main`` hands to the thin client first): each verb module adds its parsers and
runs its verb; this module turns failures into one line and an exit status."""

from __future__ import annotations

import sys

from .. import fastjson
from ..std_lite import import_module
from .common import EXIT_ASK, EXIT_BAD_INPUT, BadInput, Guards, approver, fail, internal_error_decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: Each verb module (in ``cli``), the function that adds its parsers and the verbs it adds,
#: in ``--help`` order (``tests/test_cli_startup.py`` checks the verbs against the full
#: parser). A verb imports only its own module.
VERB_MODULES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("check", "add_parsers", ("check", "explain")),
    ("demo", "add_parsers", ("demo",)),
    ("accuracy", "add_parsers", ("eval",)),
    ("audit", "add_parsers", ("audit",)),  # audit tail
    ("rules", "add_parsers", ("trust", "untrust", "rules")),
    ("integrations", "add_parsers", ("hook", "install", "uninstall", "mcp-proxy")),
    ("mcp", "add_parsers", ("mcp",)),  # mcp trust, pins, forget
    ("run", "add_parsers", ("run", "doctor")),
    ("scan", "add_parser", ("scan",)),
    ("replay", "add_parser", ("replay",)),
)


def _module(name: str) -> Any:
    """The verb module ``cli.NAME``, imported on first use."""
    return import_module(f"{__package__}.{name}")


def _adders(verb: str | None = None) -> list[tuple[Any, tuple[str, ...]]]:
    """Each verb module's parser builder with the verbs it adds; given a known ``verb``,
    only its own module's."""
    rows = [row for row in VERB_MODULES if verb in row[2]] or list(VERB_MODULES)
    return [(getattr(_module(module), adder), verbs) for module, adder, verbs in rows]


def build_parser(verb: str | None = None) -> Any:
    """The parser of every verb; given a known ``verb``, only its own module's parsers:
    building all of them (argparse, and the imports some verbs' options need) costs
    more than ``bastion check``'s decision. Help and unknown verbs get the full parser."""
    parser = _parser_class()(prog="bastion", description="Allow, ask or deny AI agents' tool calls.")
    sub = parser.add_subparsers(dest="verb", metavar="COMMAND")
    for add, _verbs in _adders(verb):
        add(sub)
    return parser


def _terminal_width() -> int:
    """The columns ``shutil.get_terminal_size`` would report (``COLUMNS``, else the
    terminal's, else 80), without importing ``shutil`` and the archive modules it loads."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _parser_class() -> Any:
    """``argparse.ArgumentParser`` whose parsers (sub-parsers too) format help at the
    terminal's width, measured by :func:`_terminal_width`: argparse builds a formatter
    for every option it adds, and its own measures the width with ``shutil`` (which
    loads ``bz2``, ``lzma`` and ``fnmatch``), a cost on every ``bastion check``."""
    import argparse

    class Formatter(argparse.HelpFormatter):
        def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                     width: int | None = None) -> None:
            super().__init__(prog, indent_increment, max_help_position,
                             _terminal_width() - 2 if width is None else width)

    class Parser(argparse.ArgumentParser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if kwargs.get("formatter_class", argparse.HelpFormatter) is argparse.HelpFormatter:
                kwargs["formatter_class"] = Formatter
            super().__init__(*args, **kwargs)

    return Parser


def run(argv: Sequence[str]) -> int:
    """``bastion`` with ``argv`` (anything but ``hook``): the verb's exit status."""
    from .plain_args import plain_args

    parser = None
    args = plain_args(argv)  # check and explain in their plain form: no argparse to load
    if args is None:
        parser = build_parser(argv[0] if argv else None)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:
            return int(exc.code or 0) if exc.code in (0, None) else EXIT_BAD_INPUT
    try:
        return _dispatch(parser, args)
    except BadInput as exc:
        return fail(str(exc))
    except ValueError as exc:
        return fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - never a traceback, never an allow
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        if args.verb in ("check", "explain"):
            print(fastjson.dumps(internal_error_decision(detail)))
            print(f"bastion: internal error, asking instead of allowing: {detail}", file=sys.stderr)
            return EXIT_ASK
        print(f"bastion: internal error: {detail}", file=sys.stderr)
        return 1


def _dispatch(parser: Any, args: Any) -> int:
    if args.verb == "check":
        return _module("check").cmd_check(args)
    if args.verb == "explain":
        return _module("check").cmd_explain(args)
    if args.verb == "demo":
        return _module("demo").cmd_demo(args)
    if args.verb == "eval":
        return _module("accuracy").cmd_eval(args)
    if args.verb == "audit":
        if args.audit_command != "tail":
            parser.parse_args(["audit", "--help"])
        return _module("audit").cmd_audit(args)
    if args.verb in ("trust", "untrust"):
        return _module("rules").cmd_trust(args, args.verb == "trust")
    if args.verb in ("install", "uninstall", "mcp-proxy"):
        return _module("integrations").dispatch(args)
    if args.verb == "mcp":
        return _module("mcp").dispatch(args)
    if args.verb == "doctor":
        return _module("run").cmd_doctor(args)
    if args.verb == "run":
        guards = Guards(args)
        return _module("run").cmd_run(args, guards, lambda call, decision: approver(guards.for_cwd(call.cwd))(call, decision))
    if args.verb == "scan":
        return _module("scan").run(args)
    if args.verb == "replay":
        return _module("replay").cmd_replay(args)
    if args.verb == "rules":
        return _module("rules").cmd_rules(args)
    parser.print_help()
    return EXIT_BAD_INPUT

"""``bastion rules list|add|test`` and ``bastion trust|untrust``: the rules in force,
saving one, checking a file's examples, and whether a project may loosen the guard."""

from __future__ import annotations

import os
import sys
from typing import Any

from .common import fail


def add_parsers(sub: Any) -> None:
    for verb, text in (("trust", "let this project's settings loosen the guard"), ("untrust", "take trust back")):
        trust = sub.add_parser(verb, help=text)
        trust.add_argument("dir", nargs="?", default=".")

    rules = sub.add_parser("rules", help="list, add and test permission rules")
    rules_sub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    rules_list = rules_sub.add_parser("list", help="the rules in force here, with their sources")
    rules_list.add_argument("--cwd")
    rules_list.add_argument("--isolated", action="store_true")
    rules_test = rules_sub.add_parser("test", help="check the match/not_match examples of a settings file")
    rules_test.add_argument("file")
    rules_add = rules_sub.add_parser("add", help="save an allow (or deny/ask) rule")
    rules_add.add_argument("rule")
    rules_add.add_argument("--behavior", choices=("allow", "deny", "ask"), default="allow")
    rules_add.add_argument("--scope", choices=("user", "project", "local"), default="user",
                           help="user settings (default), or this project's .bastion/settings(.local).json")
    rules_add.add_argument("--file", help="settings file to write (overrides --scope)")
    rules_add.add_argument("--example", action="append", help="a command the rule must match (checked on load)")
    rules_add.add_argument("--force", action="store_true", help="save an allow rule even when it is very broad")


def cmd_trust(args: Any, trusted: bool) -> int:
    from ..policy.settings import find_project_root, trust, untrust

    root = find_project_root(os.path.abspath(args.dir))
    (trust if trusted else untrust)(root)
    print(f"{'trusted' if trusted else 'no longer trusted'}: {root}")
    return 0


def cmd_rules(args: Any) -> int:
    if not args.rules_command:
        args.rules_command, args.cwd, args.isolated = "list", None, False
    if args.rules_command == "test":
        from ..policy.settings import test_rules_file

        ok, lines = test_rules_file(args.file)
        for line in lines:
            print(line)
        return 0 if ok else 1
    if args.rules_command == "add":
        from pathlib import Path

        from ..policy.grants import save_always_rule
        from ..policy.rules import RuleError, parse_rule

        try:
            parse_rule(args.rule, args.behavior, source="user")
        except RuleError as exc:
            return fail(f"invalid rule {args.rule!r}: {exc}")
        if args.behavior == "allow" and not args.force:
            from ..policy.suggest import is_too_broad

            if is_too_broad(args.rule):
                return fail(f"{args.rule} would allow far more than one task needs (a whole tool, an open-ended "
                            "command, or credential and protected paths); narrow it, or add --force")
        target = Path(args.file) if args.file else _settings_target(args.scope)
        try:
            save_always_rule(target, args.rule, examples=args.example or (), behavior=args.behavior)
        except (OSError, ValueError) as exc:
            return fail(str(exc))
        print(f"added {args.behavior} rule {args.rule} to {target}")
        if args.behavior == "allow" and not args.file and args.scope != "user":
            from ..policy.settings import find_project_root, is_trusted

            root = find_project_root(os.getcwd())
            if not is_trusted(root):
                print(f"bastion: note: {root} is not trusted, so its settings can only tighten; "
                      "run 'bastion trust' for this allow rule to apply", file=sys.stderr)
        return 0
    # list
    from ..policy.settings import load_policy

    policy = load_policy(os.path.abspath(args.cwd or os.getcwd()), isolated=args.isolated)
    for rule in policy.rules:
        print(f"{rule.behavior:5}  {rule.text}  [{rule.source}{': ' + rule.origin if rule.origin else ''}]")
    for line in list(policy.errors) + list(policy.notices):
        print(f"note: {line}")
    return 0


def _settings_target(scope: str) -> Any:
    from pathlib import Path

    from .. import state
    from ..policy.settings import find_project_root

    if scope == "user":
        return state.config_dir() / "settings.json"
    root = Path(find_project_root(os.getcwd()))
    return root / ".bastion" / ("settings.local.json" if scope == "local" else "settings.json")

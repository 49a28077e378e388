"""``bastion audit tail``: the latest decisions from the audit log."""

from __future__ import annotations

import json
import os
from typing import Any

from .common import fail


def add_parsers(sub: Any) -> None:
    audit = sub.add_parser("audit", help="read the audit log")
    audit_sub = audit.add_subparsers(dest="audit_command", metavar="SUBCOMMAND")
    audit_tail = audit_sub.add_parser("tail", help="the latest decisions")
    audit_tail.add_argument("-n", "--lines", type=int, default=20)
    audit_tail.add_argument("--json", action="store_true")


def cmd_audit(args: Any) -> int:
    from ..audit.log import audit_path, tail
    from ..policy.settings import load_policy

    policy = load_policy(os.getcwd())
    path = audit_path(policy)
    if path is None:
        return fail("the audit log is switched off (audit.enabled is false or BASTION_AUDIT=0)")
    records = tail(path, args.lines)
    if args.json:
        for record in records:
            print(json.dumps(record, ensure_ascii=False))
        return 0
    if not records:
        print(f"no decisions logged yet in {path}")
    for record in records:
        tool_input = record.get("input") or {}
        what = tool_input.get("command") or tool_input.get("file_path") or tool_input.get("url") or ""
        print(f"{record.get('time', '?')}  {record.get('decision', '?'):5}  {record.get('tool', '?')}  {what}")
        print(f"    {record.get('layer', '?')}: {record.get('reason', '')}")
    return 0

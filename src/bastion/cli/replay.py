"""``bastion replay``: try bastion on your own agent history before installing it."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from .common import BadInput

#: Seconds before the progress bar appears: short histories finish without one.
PROGRESS_AFTER = 0.5
#: Seconds between redraws of the progress bar.
PROGRESS_EVERY = 0.1


def add_parser(sub: Any) -> None:
    from ..audit.transcripts import FORMATS

    replay = sub.add_parser(
        "replay", help="what bastion would have decided on every tool call of your agents' history",
        description="Reads Claude Code transcripts (~/.claude/projects), Codex rollouts (~/.codex/sessions), "
                    "Gemini CLI chats (~/.gemini/tmp/*/chats) and JSON Lines files of calls, and reports what "
                    "bastion would have decided on each tool call. Nothing is logged, counted or granted.")
    replay.add_argument("paths", nargs="*", metavar="PATH",
                        help="history files or folders (default: the clients' own folders on this machine)")
    replay.add_argument("--format", choices=FORMATS, help="the files' format (default: told from each file)")
    replay.add_argument("--json", action="store_true", help="print the report as JSON")
    replay.add_argument("--mode", help="judge every call in this permission mode (default: the one it ran in)")
    replay.add_argument("--settings", action="append", metavar="FILE", help="extra settings file (flag priority)")
    replay.add_argument("--isolated", action="store_true", help="ignore managed, user and Claude Code settings")
    replay.add_argument("--cwd", help="working directory for calls whose file does not say (default: this one)")


class Progress:
    """A one-line bar on stderr, only on a terminal and only for a history long enough to wait for."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.drawn = 0.0
        self.shown = False
        self.enabled = total > 0 and bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, files: int, calls: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.started < PROGRESS_AFTER or (now - self.drawn < PROGRESS_EVERY
                                                                       and files < self.total):
            return
        self.drawn, self.shown = now, True
        width = 30
        filled = width * files // self.total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {files:,}/{self.total:,} files, "
                          f"{calls:,} calls ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def cmd_replay(args: Any) -> int:
    from ..audit.replay import Replayer, render, replay
    from ..audit.transcripts import default_sources, history_files

    env = os.environ
    if args.paths:
        missing = [p for p in args.paths if not os.path.exists(p)]
        if missing:
            raise BadInput(f"{missing[0]}: no such file or folder")
        sources = [Path(p) for p in args.paths]
    else:
        sources = default_sources(env)
        if not sources:
            raise BadInput("no agent history found (looked for ~/.claude/projects, ~/.codex/sessions and "
                           "~/.gemini/tmp); give the files or folders to replay")
    if args.cwd and not os.path.isdir(args.cwd):
        raise BadInput(f"--cwd {args.cwd}: no such directory")
    files = history_files(sources)
    replayer = Replayer(env=env, isolated=args.isolated, settings_files=args.settings or (), mode=args.mode)
    progress = Progress(len(files))
    try:
        report = replay([(path, args.format) for path in files], replayer,
                        cwd=os.path.abspath(args.cwd or os.getcwd()), progress=progress)
    finally:
        progress.close()
    for line in replayer.notices:
        print(f"bastion: {line}", file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render(report, home=env.get("HOME", "")))
    return 0

"""The terminal prompt: a person approves, denies or grants a call (spec 000 §06, 001).

What the person sees: a title, the full command (or the file path, with a short diff
for edits), the explainer's what / paths / hosts / risk with its level, the reason
bastion asks, and three options:

* **Allow once** — the default: Enter, or ``y``;
* **Allow for this session** — ``a``; only offered with a session id, and never for
  destructive, protected (immune) or no-grant asks;
* **Deny** — ``n``; ``Esc`` and Ctrl-C deny too (recorded as an abort).

"Always allow" is not in the prompt: the safe choice is the easy one, and a rule is
saved deliberately (``bastion rules add``, or the settings file; the prompt shows the
suggested rule). Arrow keys move the selection, Enter takes it.

Keypresses in the first 200 ms after the prompt appears are ignored (a key typed for
the agent must not approve a call; Ctrl-C is the exception — denying is always safe).
The selection marker ``❯`` is drawn only once keys count, so the prompt shows when it
is live (and a program driving the terminal can wait for it rather than for a time).
The prompt reads from ``/dev/tty`` when stdin is not a terminal and draws on the
terminal, never on stdout (so ``bastion check --prompt … > out.json`` works). Without a
terminal the approver falls back to the headless one (deny, with the reason).

prompt_toolkit is imported only when a prompt is actually drawn: this module is cheap
to import, and the hook path never imports it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from ..model import Decision, Kind, Source, ToolCall
from .base import Approver, Choice, LLMExplainer, allowed, can_grant, denied
from .explainer import Explanation, edit_diff, explain

GRACE_SECONDS = 0.2
#: Lengthens the grace period (milliseconds); it can never be shorter than 200 ms.
GRACE_VARIABLE = "BASTION_PROMPT_GRACE_MS"

#: Title per kind of call.
TITLES: dict[Kind, str] = {
    Kind.SHELL: "wants to run a shell command",
    Kind.FILE_WRITE: "wants to write a file",
    Kind.FILE_EDIT: "wants to edit a file",
    Kind.FILE_READ: "wants to read a file",
    Kind.SEARCH: "wants to search files",
    Kind.WEB_FETCH: "wants to fetch a web page",
    Kind.MCP: "wants to call an MCP tool",
    Kind.OTHER: "wants to use a tool",
}
OPTION_LABELS: dict[Choice, tuple[str, str]] = {
    Choice.ONCE: ("Allow once", "y / Enter"),
    Choice.SESSION: ("Allow for this session", "a"),
    Choice.DENY: ("Deny", "n / Esc"),
}
_STYLE = {
    "title": "bold",
    "command": "bold",
    "label": "ansibrightblack",
    "level-low": "ansigreen bold",
    "level-medium": "ansiyellow bold",
    "level-high": "ansired bold",
    "diff-add": "ansigreen",
    "diff-del": "ansired",
    "diff-hunk": "ansicyan",
    "selected": "reverse",
    "note": "ansibrightblack italic",
}


# --------------------------------------------------------------------------- the terminal


@dataclass
class Terminal:
    """Where the prompt reads keys and draws: stdin when it is a terminal, else
    ``/dev/tty``; drawing goes to ``/dev/tty`` (or stderr), never to stdout."""

    input: IO[str]
    output: IO[str]
    _owned: list[IO[str]] = field(default_factory=list)

    @classmethod
    def open(cls) -> Terminal | None:
        """The controlling terminal, or None when there is none (CI, a pipe, a daemon)."""
        owned: list[IO[str]] = []
        tty_in: IO[str] | None = None
        tty: IO[str] | None = None
        try:  # a tty is not seekable: one read-only and one write-only stream, never "r+"
            fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
        except OSError:
            fd = -1
        if fd >= 0:
            tty_in = os.fdopen(os.dup(fd), "r", encoding="utf-8", errors="replace")
            tty = os.fdopen(fd, "w", encoding="utf-8", errors="replace", buffering=1)
            owned += [tty_in, tty]
        stdin = sys.stdin
        try:
            stdin_tty = stdin is not None and not stdin.closed and stdin.isatty()
        except (ValueError, OSError):
            stdin_tty = False
        source = stdin if stdin_tty else tty_in
        sink: IO[str] | None = tty
        if sink is None:
            try:
                sink = sys.stderr if sys.stderr is not None and sys.stderr.isatty() else None
            except (ValueError, OSError):
                sink = None
        if source is None or sink is None:
            for handle in owned:
                handle.close()
            return None
        return cls(source, sink, owned)

    def close(self) -> None:
        for handle in self._owned:
            try:
                handle.close()
            except OSError:
                pass
        self._owned.clear()


def grace_seconds(env: Mapping[str, str]) -> float:
    """The grace period: 200 ms, or longer when ``BASTION_PROMPT_GRACE_MS`` asks for it."""
    try:
        wanted = float(env.get(GRACE_VARIABLE, "")) / 1000
    except ValueError:
        wanted = 0.0
    return max(GRACE_SECONDS, min(wanted, 10.0))


def terminal_available() -> bool:
    """Can a prompt be shown here at all?"""
    terminal = Terminal.open()
    if terminal is None:
        return False
    terminal.close()
    return True


# --------------------------------------------------------------------------- one prompt


class TerminalPrompt:
    """One prompt for one call on one terminal.

    ``run()`` blocks until the person answers (returns the Choice) or ``cancel()`` is
    called from another thread (returns None). ``on_touch`` is called on the first key
    the person presses after the grace period; ``claim(choice)`` is asked before an
    answer is taken (a racing approver says no when an automated answer won first).
    """

    def __init__(
        self,
        call: ToolCall,
        decision: Decision,
        terminal: Terminal,
        *,
        explanation: Explanation | None = None,
        offer_session: bool = True,
        grace: float = GRACE_SECONDS,
        on_touch: Callable[[], None] | None = None,
        claim: Callable[[Choice], bool] | None = None,
        llm_explainer: LLMExplainer | None = None,
    ) -> None:
        self.call = call
        self.decision = decision
        self.terminal = terminal
        self.explanation = explanation or explain(call, decision)
        self.choices = [Choice.ONCE, *([Choice.SESSION] if offer_session else []), Choice.DENY]
        self.offer_session = offer_session
        self.grace = grace
        self.on_touch = on_touch
        self.claim = claim or (lambda choice: True)
        self.llm_explainer = llm_explainer
        self.selected = 0
        #: Scrolling of the command / diff: first line shown, lines shown, lines below, all lines.
        self.body_offset = 0
        self.body_room = 0
        self.body_hidden = 0
        self.body_total = 0
        self.shown_at: float | None = None
        self.touched = False
        self.cancel_note: str | None = None
        self._lock = threading.Lock()
        self._loop: Any = None
        self._app: Any = None

    # -- what is drawn ---------------------------------------------------------------

    @staticmethod
    def _lines(rows: list[list[tuple[str, str]]]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for index, row in enumerate(rows):
            if index:
                out.append(("", "\n"))
            out.extend((style, visible(text)) for style, text in row)
        return out

    def header(self) -> list[tuple[str, str]]:
        """Who wants what, and where."""
        call = self.call
        who = call.agent.strip().capitalize() or "The agent"
        return self._lines([
            [("class:title", f" bastion · {who} {TITLES.get(call.kind, TITLES[Kind.OTHER])}")],
            [("class:label", f" {call.tool} in {call.cwd}")],
            [],
        ])

    def body_rows(self) -> list[list[tuple[str, str]]]:
        """The full command (or path) and, for edits, the diff: scrolls when it is long."""
        call = self.call
        rows: list[list[tuple[str, str]]] = []
        target = call.command if call.command is not None else ", ".join(call.paths) or _brief_input(call)
        for text in (target or call.tool).splitlines() or [""]:
            rows.append([("", "   "), ("class:command", text)])
        diff = edit_diff(call)
        if diff:
            rows.append([])
            for text in diff:
                style = "class:diff-add" if text.startswith("+") else "class:diff-del" if text.startswith("-") else "class:diff-hunk" if text.startswith("@@") else ""
                rows.append([("", "   "), (style, text)])
        return rows

    def footer(self) -> list[tuple[str, str]]:
        """The explanation, the options and the note under them."""
        call, decision, exp = self.call, self.decision, self.explanation
        rows: list[list[tuple[str, str]]] = []
        if self.body_hidden or self.body_offset:
            shown = f"lines {self.body_offset + 1}–{self.body_offset + self.body_room} of {self.body_total}"
            rows.append([("class:note", f"   … {shown}: PgUp / PgDn to scroll")])
        rows.append([])
        rows.append([("class:label", " What   "), ("", exp.what)])
        if exp.paths:
            rows.append([("class:label", " Paths  "), ("", ", ".join(exp.paths[:6]) + (" …" if len(exp.paths) > 6 else ""))])
        if exp.hosts:
            rows.append([("class:label", " Hosts  "), ("", ", ".join(exp.hosts[:6]))])
        rows.append([("class:label", " Risk   "), (f"class:level-{exp.level.lower()}", exp.level), ("", f"  {exp.risk}")])
        rows.append([("class:label", " Why    "), ("", decision.reason)])
        if exp.detail:
            rows.append([("class:label", " Model  "), ("", exp.detail)])
        elif self.llm_explainer is not None:
            rows.append([("class:note", " (a longer explanation is on its way …)")])
        rows.append([])
        live = not self._in_grace()  # nothing is selected while keys are still ignored
        for index, choice in enumerate(self.choices):
            label, keys = OPTION_LABELS[choice]
            marker = " ❯ " if live and index == self.selected else "   "
            style = "class:selected" if live and index == self.selected else ""
            rows.append([("", marker), (style, f"{label:<24}"), ("class:label", f"  {keys}")])
        if not self.offer_session:
            rows.append([("class:note", "   Only this once can be allowed here: " + _why_once(call, decision))])
        elif decision.suggestions:
            rule = decision.suggestions[0]
            # a project-relative path rule (`Edit(/.claude/skills/x/**)`) belongs to the project
            scope = " --scope local" if "(/" in rule and "(//" not in rule else ""
            rows.append([("class:note", f"   To never be asked again: bastion rules add '{rule}'{scope}")])
        return self._lines(rows)

    def fragments(self) -> list[tuple[str, str]]:
        """The whole prompt as prompt_toolkit formatted text (style, text) pairs."""
        return self._lines([[*self.header()], [*self._lines(self.body_rows())], [*self.footer()]])

    # -- control -----------------------------------------------------------------------

    def cancel(self, note: str) -> None:
        """Close the prompt from another thread (an automated answer won)."""
        with self._lock:
            self.cancel_note = note
            loop, app = self._loop, self._app
        if loop is not None and app is not None:
            loop.call_soon_threadsafe(self._exit_cancelled)

    def _exit_cancelled(self) -> None:
        app = self._app
        if app is not None and app.is_running and not app.future.done():
            app.exit(result=None)

    def _in_grace(self) -> bool:
        return self.shown_at is None or time.monotonic() - self.shown_at < self.grace

    def _touch(self) -> None:
        if not self.touched:
            self.touched = True
            if self.on_touch is not None:
                self.on_touch()

    def _choose(self, app: Any, choice: Choice) -> None:
        self._touch()
        if self.claim(choice):
            app.exit(result=choice)

    def _bindings(self) -> Any:
        from prompt_toolkit.key_binding import KeyBindings

        kb = KeyBindings()

        def guarded(handler: Callable[[Any], None]) -> Callable[[Any], None]:
            def run(event: Any) -> None:
                if self._in_grace():
                    return  # a key typed before the person could read the prompt
                handler(event)

            return run

        @kb.add("c-c", eager=True)
        def _(event: Any) -> None:  # denying is always safe, even in the grace period
            self._choose(event.app, Choice.ABORT)

        kb.add("escape", eager=True)(guarded(lambda e: self._choose(e.app, Choice.ABORT)))
        kb.add("y")(guarded(lambda e: self._choose(e.app, Choice.ONCE)))
        kb.add("Y")(guarded(lambda e: self._choose(e.app, Choice.ONCE)))
        kb.add("n")(guarded(lambda e: self._choose(e.app, Choice.DENY)))
        kb.add("N")(guarded(lambda e: self._choose(e.app, Choice.DENY)))
        if Choice.SESSION in self.choices:
            kb.add("a")(guarded(lambda e: self._choose(e.app, Choice.SESSION)))
            kb.add("A")(guarded(lambda e: self._choose(e.app, Choice.SESSION)))
        kb.add("enter")(guarded(lambda e: self._choose(e.app, self.choices[self.selected])))

        def move(step: int) -> Callable[[Any], None]:
            def handler(event: Any) -> None:
                self._touch()
                self.selected = (self.selected + step) % len(self.choices)

            return handler

        for key in ("up", "k", "s-tab"):
            kb.add(key)(guarded(move(-1)))
        for key in ("down", "j", "tab"):
            kb.add(key)(guarded(move(1)))

        def scroll(step: int) -> Callable[[Any], None]:
            def handler(event: Any) -> None:
                self._touch()
                last = max(0, self.body_total - max(self.body_room, 1))
                self.body_offset = max(0, min(self.body_offset + step, last))
                event.app.renderer.erase()  # redraw whole lines, not a diff of scrolled text

            return handler

        kb.add("pageup")(guarded(scroll(-10)))
        kb.add("pagedown")(guarded(scroll(10)))

        @kb.add("<any>")
        def _(event: Any) -> None:  # any other key still counts as the person being there
            if not self._in_grace():
                self._touch()

        return kb

    def _layout(self) -> Any:
        """Header and footer always fit; the command / diff in between gets the rows that
        are left and scrolls (PgUp / PgDn) when it is longer, so the options never fall
        off the screen."""
        from prompt_toolkit.application.current import get_app
        from prompt_toolkit.layout import HSplit, Layout, Window
        from prompt_toolkit.layout.controls import FormattedTextControl

        rows = self.body_rows()
        self.body_total = self.body_room = len(rows)

        def height(fragments: list[tuple[str, str]], width: int) -> int:
            text = "".join(t for _, t in fragments)
            return sum(max(1, -(-len(line) // max(width, 1))) for line in text.split("\n"))

        def visible() -> list[tuple[str, str]]:
            size = get_app().output.get_size()
            fixed = height(self.header(), size.columns) + height(self.footer(), size.columns) + (0 if self.body_hidden else 1)
            room = max(3, size.rows - fixed - 1)
            self.body_offset = min(self.body_offset, max(0, len(rows) - 1))
            shown, used = 0, 0
            for row in rows[self.body_offset :]:
                need = height(row, size.columns)
                if used + need > room and shown:
                    break
                shown, used = shown + 1, used + need
            self.body_room, self.body_hidden = shown, len(rows) - self.body_offset - shown
            return self._lines(rows[self.body_offset : self.body_offset + shown])

        # The ignores: prompt_toolkit types formatted text as an invariant ``list`` of a
        # union of 2- and 3-tuples, so a list of plain (style, text) pairs, which it
        # accepts at run time, does not match the declared type.
        return Layout(HSplit([
            Window(FormattedTextControl(self.header), wrap_lines=True, dont_extend_height=True),  # type: ignore[arg-type]
            Window(FormattedTextControl(visible), wrap_lines=True, dont_extend_height=True),  # type: ignore[arg-type]
            Window(FormattedTextControl(self.footer), wrap_lines=True, dont_extend_height=True),  # type: ignore[arg-type]
        ]))

    def run(self) -> Choice | None:
        """Show the prompt and wait for the person (or a cancel)."""
        import asyncio

        from prompt_toolkit.application import Application
        from prompt_toolkit.input import create_input
        from prompt_toolkit.styles import Style

        app: Application[Choice | None] = Application(
            layout=self._layout(),
            key_bindings=self._bindings(),
            style=Style.from_dict(_STYLE),
            full_screen=False,
            erase_when_done=True,
            input=create_input(stdin=self.terminal.input),  # type: ignore[arg-type]
            output=_output(self.terminal.output),
        )
        app.ttimeoutlen = 0.05  # Esc alone answers at once, not after half a second

        def shown(_: Any) -> None:
            if self.shown_at is None:
                self.shown_at = time.monotonic()
                asyncio.get_running_loop().call_later(self.grace, live)

        def live() -> None:  # the grace period is over: redraw, now with the selection marker
            left = self.grace - (time.monotonic() - (self.shown_at or 0.0))
            if left > 0:
                asyncio.get_running_loop().call_later(left, live)
            else:
                app.invalidate()

        app.after_render += shown

        def started() -> None:
            with self._lock:
                self._loop, self._app = asyncio.get_running_loop(), app
                cancelled = self.cancel_note is not None
            if cancelled:
                self._loop.call_soon(self._exit_cancelled)
            if self.llm_explainer is not None:
                threading.Thread(target=self._fetch_detail, args=(app,), daemon=True, name="bastion-explainer").start()

        in_main = threading.current_thread() is threading.main_thread()
        try:
            result = app.run(pre_run=started, handle_sigint=False, set_exception_handler=in_main)
        finally:
            with self._lock:
                self._loop = self._app = None
        return result

    def _fetch_detail(self, app: Any) -> None:
        """Ask the LLM explainer without blocking the prompt; redraw when it answers."""
        try:
            text = self.llm_explainer(self.call, self.decision) if self.llm_explainer else None
        except Exception:  # noqa: BLE001 - an optional nicety
            text = None
        self.explanation.detail = _detail_text(text)
        with self._lock:
            loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(app.invalidate)


def visible(text: str) -> str:
    """Text as a person must see it: control, format, bidi and odd whitespace characters
    (which could hide or reorder what a command really says) are shown as ``<U+202E>``."""
    if text.isprintable():
        return text
    return "".join(
        "    " if ch == "\t" else ch if ch == "\n" or ch.isprintable() else f"<U+{ord(ch):04X}>" for ch in text
    )


def _detail_text(result: Any) -> str:
    """One line from the LLM explainer's answer: a string, or an object with
    ``explanation`` / ``reasoning`` / ``risk`` / ``level`` (``bastion.review``)."""
    if not result:
        return "(no explanation available)"
    parts = [getattr(result, name, "") for name in ("explanation", "reasoning")]
    text = " ".join(p for p in parts if isinstance(p, str) and p) or str(result)
    risk, level = getattr(result, "risk", ""), getattr(result, "level", "")
    if isinstance(risk, str) and risk:
        text += f" Risk ({level}): {risk}" if isinstance(level, str) and level else f" Risk: {risk}"
    return " ".join(text.split())[:500]


def _output(stream: IO[str]) -> Any:
    """prompt_toolkit's output on ``stream``, without cursor-position requests: a
    terminal that never answers them would hold the prompt open a second after every
    answer, and an inline prompt does not need them."""
    from prompt_toolkit.output.vt100 import Vt100_Output

    output = Vt100_Output.from_pty(stream, term=os.environ.get("TERM"))  # type: ignore[arg-type]
    output.enable_cpr = False
    return output


def _brief_input(call: ToolCall) -> str:
    import json

    try:
        text = json.dumps(dict(call.input), ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(call.input)
    return text if len(text) <= 300 else text[:300] + " …"


def _why_once(call: ToolCall, decision: Decision) -> str:
    if decision.immune:
        return "it is protected."
    if not call.session_id and not (decision.no_grant or decision.risk.value == "destructive"):
        return "there is no session to remember it for."
    if decision.risk.value != "destructive" and decision.layer in _ASKS_EVERY_TIME:
        return _ASKS_EVERY_TIME[decision.layer]
    return "it is destructive."


#: Layers that ask before grants are read: a grant would not stop the next ask.
_ASKS_EVERY_TIME = {
    "mode": "plan mode asks before every change.",
    "plugins_restrict": "its guard plugin asks for it every time.",
}


# --------------------------------------------------------------------------- the approver


class TerminalApprover:
    """Ask a person at the terminal; without a terminal, ``fallback`` (headless) answers.

    A session grant is stored when the person picks "allow for this session" (it covers
    the same command, whitespace-normalised, in the same session).
    """

    def __init__(
        self,
        *,
        env: Mapping[str, str] | None = None,
        grace: float | None = None,
        llm_explainer: LLMExplainer | None = None,
        fallback: Approver | None = None,
    ) -> None:
        self.env = env if env is not None else os.environ
        self.grace = grace if grace is not None else grace_seconds(self.env)
        self.llm_explainer = llm_explainer
        if fallback is None:
            from .headless import HeadlessApprover

            fallback = HeadlessApprover("no terminal")
        self.fallback = fallback

    def open(
        self,
        call: ToolCall,
        decision: Decision,
        *,
        on_touch: Callable[[], None] | None = None,
        claim: Callable[[Choice], bool] | None = None,
    ) -> TerminalPrompt | None:
        """A prompt ready to run, or None when there is no terminal."""
        terminal = Terminal.open()
        if terminal is None:
            return None
        return TerminalPrompt(
            call,
            decision,
            terminal,
            offer_session=can_grant(decision) and bool(call.session_id),
            grace=self.grace,
            on_touch=on_touch,
            claim=claim,
            llm_explainer=self.llm_explainer,
        )

    def finish(self, call: ToolCall, decision: Decision, choice: Choice) -> Decision:
        """The final Decision for the person's choice (storing a session grant)."""
        if choice is Choice.ONCE:
            return allowed(decision, Source.USER_TEMPORARY, "allowed once at the terminal")
        if choice is Choice.SESSION:
            from ..session import GrantRefused, grant

            try:
                grant(call, decision, "session", env=self.env)
            except (GrantRefused, OSError, ValueError) as exc:
                return allowed(decision, Source.USER_TEMPORARY, f"allowed once at the terminal (not for the session: {exc})")
            return allowed(decision, Source.USER_TEMPORARY, "allowed for this session at the terminal")
        if choice is Choice.DENY:
            return denied(decision, Source.USER_REJECT, "denied at the terminal")
        return denied(decision, Source.USER_ABORT, "aborted at the terminal (Esc / Ctrl-C)")

    def __call__(self, call: ToolCall, decision: Decision) -> Decision:
        prompt = self.open(call, decision)
        if prompt is None:
            return self.fallback(call, decision)
        try:
            choice = prompt.run()
        except Exception as exc:  # noqa: BLE001 - a broken terminal denies, never allows
            prompt.terminal.close()
            return denied(decision, Source.USER_ABORT, f"the prompt failed ({type(exc).__name__})")
        final = self.finish(call, decision, choice or Choice.ABORT)
        report(prompt.terminal, call, final)
        prompt.terminal.close()
        return final


def report(terminal: Terminal, call: ToolCall, final: Decision) -> None:
    """One line left on the terminal after the prompt closes: what was decided, by whom."""
    what = call.command if call.command is not None else ", ".join(call.paths) or call.tool
    what = visible(" ".join(what.split()))
    if len(what) > 80:
        what = what[:79] + "…"
    verdict = "allowed" if final.allowed else "denied"
    try:
        terminal.output.write(f"bastion: {verdict} ({final.source.value}): {what}\n")
        terminal.output.flush()
    except (OSError, ValueError):
        pass

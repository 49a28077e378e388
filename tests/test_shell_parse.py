"""The fail-closed parser: the allowlist, every too-complex construct, partial
extraction, here-documents, context tracking and limits."""

from __future__ import annotations

import pytest

from bastion.shell.syntax import parse as parse_module
from bastion.shell.syntax.parse import MAX_BYTES, MAX_COMMANDS, UNKNOWN_CWD, parse
from bastion.shell.syntax.script import Redirect, Script, TooComplex


def argvs(result) -> list[tuple[str, ...]]:
    return [c.argv for c in result.commands]


def simple(command: str) -> Script:
    result = parse(command)
    assert isinstance(result, Script), (command, getattr(result, "reason", ""))
    return result


# ----------------------------------------------------------------------------- allowlist

ALLOWED = [
    ("git status", [("git", "status")]),
    ("ls -la && pwd || echo no", [("ls", "-la"), ("pwd",), ("echo", "no")]),
    ("a | b |& c", [("a",), ("b",), ("c",)]),
    ("a; b & c\nd", [("a",), ("b",), ("c",), ("d",)]),
    ("! grep -q x f", [("grep", "-q", "x", "f")]),
    ("echo hi # a comment", [("echo", "hi")]),
    ("# only a comment", []),
    ("", []),
    ("   \n  ", []),
    ("FOO=bar", [()]),
    ("export A=1 B", [("export", "A=1", "B")]),
    ("local x; readonly y", [("local", "x"), ("readonly", "y")]),
    ("unset X", [("unset", "X")]),
    ("[ -f x ] && cat x", [("[", "-f", "x", "]"), ("cat", "x")]),
    ("[ ! -d 'a b' -a -n x ]", [("[", "!", "-d", "a b", "-a", "-n", "x", "]")]),
    ("echo 'raw' \"dq\" $'ansi\\n' $\"tr\" 42 a\"b\"c", [("echo", "raw", "dq", "ansi\n", "tr", "42", "abc")]),
    ("ls ~/x", [("ls", "~/x")]),
    ("> out.txt", [()]),
]


@pytest.mark.parametrize("command, expected", ALLOWED)
def test_allowlisted_constructs(command: str, expected) -> None:
    assert argvs(simple(command)) == expected


# ----------------------------------------------------------------------------- too complex

TOO_COMPLEX = [
    ("echo $(date)", "command substitution"),
    ("echo `date`", "command substitution"),
    ("diff <(ls a) <(ls b)", "process substitution"),
    ("tee >(cat)", "process substitution"),
    ("echo $USER", "variable expansion $USER"),
    ("echo ${USER}", "variable expansion"),
    ("echo ${x:-y}", "variable expansion"),
    ('echo "$@"', "variable expansion"),
    ("echo $$", "variable expansion"),
    ("echo $((1 + 2))", "arithmetic expansion"),
    ("echo $[1 + 2]", "arithmetic expansion"),
    ("if true; then ls; fi", "if statement"),
    ("for f in a b; do ls; done", "for loop"),
    ("for ((i=0; i<3; i++)); do ls; done", "for loop"),
    ("while true; do ls; done", "while/until loop"),
    ("until false; do ls; done", "while/until loop"),
    ("case x in a) ls;; esac", "case statement"),
    ("f() { ls; }", "function definition"),
    ("function f { ls; }", "function definition"),
    ("(cd /tmp && ls) > out", "subshell"),  # bare groups are read (test_groups_run_their_commands)
    ("{ ls; pwd; } > out", "compound command"),
    ("[[ -f x ]]", "[[ … ]] test"),
    ("((x++))", "compound command"),
    ("a=(1 2) ls", "array assignment"),
    ("a[1]=x ls", "array subscript assignment"),
    ("declare -a arr=($(ls))", "command substitution"),
    ("declare -n ref=PATH", "name reference"),
    ("X=$(id) ls", "command substitution"),
    ("cat <<EOF\n$HOME\nEOF", "variable expansion in a here-document"),
    ("echo {1..1000}", "brace expansion with more than"),
]


@pytest.mark.parametrize("command, reason", TOO_COMPLEX)
def test_too_complex_constructs(command: str, reason: str) -> None:
    result = parse(command)
    assert isinstance(result, TooComplex), command
    assert reason in result.reason


@pytest.mark.parametrize(
    "command",
    ['echo "unterminated', "ls &&", "ls )", "if true; then ls", "echo 'x", "cat <<EOF; echo x\nb\nEOF", "x=1 >f"],
)
def test_parse_errors_are_too_complex(command: str) -> None:
    result = parse(command)
    assert result.complex and "syntax error" in result.reason
    assert any(f.code == "SH014" for f in result.findings)


def test_missing_token_is_named() -> None:
    assert "missing 'fi'" in parse("if true; then ls").reason


# ----------------------------------------------------------------------------- partial

@pytest.mark.parametrize(
    "command, inner, origin",
    [
        ("for f in *; do rm -rf /; done", ("rm", "-rf", "/"), "top"),
        ("echo $(rm -rf ~)", ("rm", "-rf", "~"), "substitution"),
        ("echo `rm -rf ~`", ("rm", "-rf", "~"), "substitution"),
        ('echo "$(rm -rf ~)"', ("rm", "-rf", "~"), "substitution"),
        ("diff <(rm -rf ~) x", ("rm", "-rf", "~"), "process-substitution"),
        ("f() { rm -rf /; }; f", ("rm", "-rf", "/"), "top"),
        ("while true; do sudo rm -rf /; done", ("rm", "-rf", "/"), "top"),
        ("if ls; then rm -rf /; else true; fi", ("rm", "-rf", "/"), "top"),
        ("case $x in a) rm -rf /;; esac", ("rm", "-rf", "/"), "top"),
        ("(cd / && rm -rf *) > log", ("rm", "-rf", "*"), "top"),
        ("{ rm -rf /; } 2> log", ("rm", "-rf", "/"), "top"),
        ("for f in $(ls); do :; done", ("ls",), "substitution"),
        ("X=$(rm -rf ~) true", ("rm", "-rf", "~"), "substitution"),
        ("cat <<EOF\n$(rm -rf ~)\nEOF", ("rm", "-rf", "~"), "substitution"),
        ("echo $(echo $(echo $(rm -rf /)))", ("rm", "-rf", "/"), "substitution"),
        ("bash -c 'for x in 1; do rm -rf /; done'", ("rm", "-rf", "/"), "bash -c"),
        ("echo 'x\" $(", None, None),
    ],
)
def test_partial_extraction(command: str, inner, origin) -> None:
    result = parse(command)
    assert isinstance(result, TooComplex)
    if inner is None:
        return
    found = [c for c in result.partial if c.argv == inner]
    assert found, (command, argvs(result))
    assert found[0].origin == origin


def test_groups_run_their_commands() -> None:
    """``( … )`` and ``{ …; }`` are read as their commands; a subshell's ``cd`` stays inside."""
    result = parse("(cd / && rm -rf *); rm -rf *")
    assert isinstance(result, Script)
    assert [(c.argv, c.cwd) for c in result.commands] == [
        (("cd", "/"), None), (("rm", "-rf", "*"), "/"), (("rm", "-rf", "*"), None)]
    result = parse("{ cd /; }; rm -rf *")
    assert isinstance(result, Script) and result.commands[-1].cwd == "/"
    piped = parse("(echo 'rm -rf ~'; echo ls) | sh")
    assert ("rm", "-rf", "~") in argvs(piped)


def test_partial_keeps_literal_variable_text() -> None:
    result = parse("rm -rf $X")
    assert result.complex
    assert result.partial[0].argv == ("rm", "-rf", "$X")
    result = parse('rm -rf "$DIR/"*')
    assert result.partial[0].argv[:2] == ("rm", "-rf")


def test_partial_commands_are_unwrapped() -> None:
    result = parse("for f in *; do sudo timeout 5 rm -rf /; done")
    cmd = [c for c in result.partial if c.name == "rm"][0]
    assert cmd.wrappers == ("sudo", "timeout")


def test_substitution_commands_have_depth() -> None:
    result = parse("echo $(rm -rf ~)")
    inner = [c for c in result.partial if c.name == "rm"][0]
    assert inner.depth == 1


# ----------------------------------------------------------------------------- heredocs

def test_heredoc_body_is_data_not_a_path() -> None:
    result = simple("cat > notes.txt <<'EOF'\nrm -rf /\nEOF")
    assert argvs(result) == [("cat",)]
    assert result.commands[0].redirects == (Redirect(">", "notes.txt"), Redirect("<<", ""))


@pytest.mark.parametrize(
    "command",
    [
        "bash <<EOF\nrm -rf /\nEOF",
        "bash <<'EOF'\nrm -rf /\nEOF",
        "sh -s <<\"EOF\"\nrm -rf /\nEOF",
        "cat <<EOF | bash\nrm -rf /\nEOF",
        "cat <<'EOF' | sudo sh\nrm -rf /\nEOF",
        "bash <<< 'rm -rf /'",
        "echo 'rm -rf /' | bash",
    ],
)
def test_script_fed_to_a_shell_is_parsed(command: str) -> None:
    result = simple(command)
    rm = [c for c in result.commands if c.name == "rm"]
    assert rm and rm[0].argv == ("rm", "-rf", "/"), argvs(result)
    assert rm[0].origin == "heredoc"
    assert "sh" in rm[0].wrappers or "bash" in rm[0].wrappers


def test_heredoc_with_tabs_stripped() -> None:
    result = simple("bash <<-EOF\n\trm -rf /\n\tEOF")
    assert ("rm", "-rf", "/") in argvs(result)


def test_heredoc_to_interpreter_is_code_execution() -> None:
    result = simple("python3 - <<'EOF'\nimport os\nEOF")
    assert argvs(result) == [("python3", "-")]
    assert any(f.code == "SH026" for f in result.findings)
    result = simple("cat <<'EOF' | node\nconsole.log(1)\nEOF")
    assert any(f.code == "SH026" for f in result.findings)


def test_heredoc_line_continues_with_list_and_pipeline() -> None:
    result = simple("cat <<EOF > out.txt && echo done | wc -l\nbody\nEOF")
    assert argvs(result) == [("cat",), ("echo", "done"), ("wc", "-l")]
    assert result.commands[0].redirects[0] == Redirect(">", "out.txt")


def test_commit_message_heredoc_substitution_is_literal() -> None:
    command = "git commit -m \"$(cat <<'EOF'\nfix: parser\n\nLonger body; with $dollars and `ticks`.\nEOF\n)\""
    result = simple(command)
    assert result.commands[0].argv == (
        "git", "commit", "-m", "fix: parser\n\nLonger body; with $dollars and `ticks`.",
    )
    assert not any(f.code == "SH008" for f in result.findings)


def test_unquoted_heredoc_in_substitution_is_not_literal() -> None:
    assert parse('git commit -m "$(cat <<EOF\nx\nEOF\n)"').complex
    assert parse('git commit -m "$(cat file)"').complex


# ----------------------------------------------------------------------------- redirects

def test_redirects() -> None:
    cmd = simple("cmd a 2>&1 >>log &>all >|clob <in 3<&0 2>/dev/null").commands[0]
    assert cmd.argv == ("cmd", "a")
    assert cmd.redirects == (
        Redirect(">&", "1", 2), Redirect(">>", "log"), Redirect("&>", "all"), Redirect(">|", "clob"),
        Redirect("<", "in"), Redirect("<&", "0", 3), Redirect(">", "/dev/null", 2),
    )


def test_words_after_a_redirect_target_are_arguments() -> None:
    assert argvs(simple("echo a >f b c")) == [("echo", "a", "b", "c")]
    assert argvs(simple("cat > /dev/null ~/.ssh/id_rsa")) == [("cat", "~/.ssh/id_rsa")]
    assert argvs(simple(">f echo hi")) == [("echo", "hi")]


def test_herestring_redirect() -> None:
    """The here-string's text is its target: ``ruby <<< 'code'`` runs it."""
    cmd = simple("cat <<< 'hello'").commands[0]
    assert cmd.redirects == (Redirect("<<<", "hello"),)


# ----------------------------------------------------------------------------- pipelines

def test_pipeline_positions_and_background() -> None:
    result = simple("curl -s x | sh; sleep 1 & ls")
    curl, sh, sleep, ls = result.commands
    assert (curl.pipeline, curl.pipe_index) == (0, 0)
    assert (sh.pipeline, sh.pipe_index) == (0, 1)
    assert sleep.pipeline == -1 and sleep.background
    assert not ls.background


# ----------------------------------------------------------------------------- cd tracking

@pytest.mark.parametrize(
    "command, cwd",
    [
        ("cd /tmp && rm -rf x", "/tmp"),
        ("cd a; cd b; ls", "a/b"),
        ("cd a && cd .. && ls", "."),
        ("cd ~/proj && ls", "~/proj"),
        ("cd $HOME/proj && ls", "~/proj"),
        ("cd && ls", "~"),
        ("cd - && ls", UNKNOWN_CWD),
        ("cd a b && ls", UNKNOWN_CWD),
        ("cd -P /tmp && ls", "/tmp"),
        ("cd /tmp | ls", None),
        ("cd /tmp & ls", None),
        ("cd /tmp || exit 1; ls", "/tmp"),
        ("cd /tmp || echo failed; ls", UNKNOWN_CWD),
        ("builtin cd /tmp; ls", "/tmp"),
        ("command cd /tmp; ls", "/tmp"),
        ("sudo cd /tmp; ls", None),
        ("pushd /tmp && ls", "/tmp"),
        ("pushd /tmp; popd; ls", None),
        ("popd; ls", UNKNOWN_CWD),
        ("cd /tmp\nls", "/tmp"),
    ],
)
def test_cd_tracking(command: str, cwd) -> None:
    assert simple(command).commands[-1].cwd == cwd


def test_cd_itself_runs_in_the_old_directory() -> None:
    result = simple("cd /a && cd b")
    assert [c.cwd for c in result.commands] == [None, "/a"]


def test_cd_inside_too_complex_script_is_tracked_best_effort() -> None:
    result = parse("for x in 1; do cd /; rm -rf *; done")
    rm = [c for c in result.partial if c.name == "rm"][0]
    assert rm.cwd == "/"


# ----------------------------------------------------------------------------- assignments

def test_bare_dangerous_assignment_carries_to_later_commands() -> None:
    result = simple("PATH=/tmp/evil; ls")
    assert result.commands[-1].assignments == (("PATH", "/tmp/evil"),)
    assert any(f.code == "SH006" for f in result.findings)


def test_export_of_dangerous_variable() -> None:
    result = simple("export LD_PRELOAD=/tmp/x.so && ls")
    assert result.commands[-1].assignments == (("LD_PRELOAD", "/tmp/x.so"),)
    assert any(f.code == "SH006" and "LD_PRELOAD" in f.message for f in result.findings)


def test_carried_assignment_stops_at_pipeline_and_background() -> None:
    assert simple("PATH=/x | ls").commands[-1].assignments == ()
    assert simple("PATH=/x & ls").commands[-1].assignments == ()


def test_assignment_classes() -> None:
    cmd = simple("NODE_ENV=test RUST_LOG=debug LC_CTYPE=C MY_FLAG=1 PYTHONPATH=/x pytest").commands[0]
    assert cmd.assignments == (("MY_FLAG", "1"), ("PYTHONPATH", "/x"))


# ----------------------------------------------------------------------------- limits

def test_size_cap() -> None:
    command = "echo " + "a" * MAX_BYTES
    result = parse(command)
    assert isinstance(result, TooComplex) and "too long" in result.reason


def test_oversized_command_still_yields_partial_commands() -> None:
    command = "rm -rf / ; " + "echo " + "x" * (MAX_BYTES + 10)
    result = parse(command)
    assert result.complex and ("rm", "-rf", "/") in argvs(result)


def test_command_count_cap() -> None:
    ok = " && ".join(["true"] * MAX_COMMANDS)
    assert not parse(ok).complex
    over = " && ".join(["true"] * (MAX_COMMANDS + 1))
    result = parse(over)
    assert result.complex and "more than 50 commands" in result.reason
    assert len(result.partial) == MAX_COMMANDS + 1


def test_deep_nesting_does_not_recurse_forever() -> None:
    command = "(" * 3000 + "ls" + ")" * 3000
    result = parse(command)
    assert result.complex
    command = "echo " + "$(echo " * 500 + "rm -rf /" + ")" * 500
    assert parse(command).complex


def test_long_lists_are_linear() -> None:
    command = " && ".join(["ls"] * 2000)
    result = parse(command)
    assert result.complex and len(result.partial) == 2000


# ----------------------------------------------------------------------------- hostile input

@pytest.mark.parametrize(
    "command, reason",
    [
        ("ls\0rm -rf /", "NUL"),
        ("ls \ud800", "invalid Unicode"),
    ],
)
def test_hostile_text(command: str, reason: str) -> None:
    result = parse(command)
    assert result.complex and reason in result.reason


def test_nul_still_shows_both_halves() -> None:
    result = parse("ls\0rm -rf /")
    assert ("rm", "-rf", "/") in argvs(result)


def test_not_a_string() -> None:
    assert parse(None).complex  # type: ignore[arg-type]


def test_internal_error_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(parse_module._Walker, "record", broken)
    result = parse("ls")
    assert isinstance(result, TooComplex) and "internal error" in result.reason


@pytest.mark.parametrize(
    "command",
    [
        "ec\\\nho hi",  # bash joins the words: "echo hi"
        "printf '%s' {}\\;",
    ],
)
def test_words_tree_sitter_splits_are_joined(command: str) -> None:
    result = simple(command)
    assert result.commands[0].argv[0] in ("echo", "printf")


@pytest.mark.parametrize(
    "command",
    [
        "tr \\  x",  # tree-sitter drops an escaped blank
        "ls x\\\t",
        "printf x \\ ",
        "echo a\\\n#b",  # a # glued by a continuation is text, not a comment
        "printf x { {",  # tree-sitter lexes "{ {" as one word
        "echo a''$a-",  # tree-sitter splits "$a"
        "echo $'x]\\'",  # tree-sitter closes $'…' at an escaped quote
    ],
)
def test_parser_differentials_fail_closed(command: str) -> None:
    assert parse(command).complex


@pytest.mark.parametrize(
    "command",
    [
        "LD_PRELOAD=$'\\x1b[2J\\n' ls",
        "echo $X\u202e",
        "sudo -\x1b ls",
        "cat /proc/self\x1b/environ",
        "-\x1b[31m x",
    ],
)
def test_reasons_and_messages_are_printable(command: str) -> None:
    result = parse(command)
    assert getattr(result, "reason", "").isprintable()
    assert all(f.message.isprintable() for f in result.findings), result.findings

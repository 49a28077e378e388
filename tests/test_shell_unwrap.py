"""Wrapper peeling: every wrapper with its own options, shell strings parsed again."""

from __future__ import annotations

import pytest

from bastion.shell.syntax.parse import MAX_DEPTH, parse
from bastion.shell.syntax.unwrap import NON_SUGGESTABLE, WRAPPERS, peel, shell_string


def only(command: str):
    """The single effective command of a fully understood script."""
    result = parse(command)
    assert not result.complex, (command, result.reason)
    assert len(result.commands) == 1, result.commands
    return result.commands[0]


# command, effective argv, wrappers
PEELED = [
    ("sudo rm -rf /tmp/x", ("rm", "-rf", "/tmp/x"), ("sudo",)),
    ("sudo -u deploy -g staff -H -n rm x", ("rm", "x"), ("sudo",)),
    ("sudo -uroot rm x", ("rm", "x"), ("sudo",)),
    ("sudo --user=root --preserve-env=PATH -- rm x", ("rm", "x"), ("sudo",)),
    ("sudo -E -C 3 -p pw -r role -t type -T 10 -U u -h rm x", ("rm", "x"), ("sudo",)),
    ("sudo -e /etc/hosts", ("sudoedit", "/etc/hosts"), ("sudo",)),
    ("sudo -s", ("sh",), ("sudo",)),
    ("sudo -i", ("sh",), ("sudo",)),
    ("doas -u root rm x", ("rm", "x"), ("doas",)),
    ("doas -s", ("sh",), ("doas",)),
    ("pkexec --user root rm x", ("rm", "x"), ("pkexec",)),
    ("env rm x", ("rm", "x"), ("env",)),
    ("env -i -u HOME -0 rm x", ("rm", "x"), ("env",)),
    ("env --unset=HOME --ignore-environment rm x", ("rm", "x"), ("env",)),
    ("env - rm x", ("rm", "x"), ("env",)),
    ("nice rm x", ("rm", "x"), ("nice",)),
    ("nice -n 10 rm x", ("rm", "x"), ("nice",)),
    ("nice -10 rm x", ("rm", "x"), ("nice",)),
    ("nice --adjustment=5 rm x", ("rm", "x"), ("nice",)),
    ("ionice -c 3 rm x", ("rm", "x"), ("ionice",)),
    ("ionice -c2 -n7 -t rm x", ("rm", "x"), ("ionice",)),
    ("nohup rm x", ("rm", "x"), ("nohup",)),
    ("timeout 5 rm x", ("rm", "x"), ("timeout",)),
    ("timeout -s KILL -k 10 --preserve-status 5s rm x", ("rm", "x"), ("timeout",)),
    ("timeout --signal=TERM 1m rm x", ("rm", "x"), ("timeout",)),
    ("time rm x", ("rm", "x"), ("time",)),
    ("time -p rm x", ("rm", "x"), ("time",)),
    ("time -f %e -o out.txt rm x", ("rm", "x"), ("time",)),
    ("stdbuf -oL -eL rm x", ("rm", "x"), ("stdbuf",)),
    ("stdbuf -o 0 --error=L rm x", ("rm", "x"), ("stdbuf",)),
    ("command rm x", ("rm", "x"), ("command",)),
    ("command -p rm x", ("rm", "x"), ("command",)),
    ("command -v rm", ("command", "-v", "rm"), ()),
    ("command -V rm", ("command", "-V", "rm"), ()),
    ("builtin echo hi", ("echo", "hi"), ("builtin",)),
    ("exec rm x", ("rm", "x"), ("exec",)),
    ("exec -a name -c rm x", ("rm", "x"), ("exec",)),
    ("setsid rm x", ("rm", "x"), ("setsid",)),
    ("setsid -f -w rm x", ("rm", "x"), ("setsid",)),
    ("flock /tmp/lock rm x", ("rm", "x"), ("flock",)),
    ("flock -n -w 5 /tmp/lock rm x", ("rm", "x"), ("flock",)),
    ("chroot /srv/root rm x", ("rm", "x"), ("chroot",)),
    ("chroot --userspec=1:1 /srv/root rm x", ("rm", "x"), ("chroot",)),
    ("chroot /srv/root", ("sh",), ("chroot",)),
    ("watch -x rm x", ("rm", "x"), ("watch",)),
    ("unbuffer rm x", ("rm", "x"), ("unbuffer",)),
    ("unbuffer -p rm x", ("rm", "x"), ("unbuffer",)),
    ("caffeinate -i rm x", ("rm", "x"), ("caffeinate",)),
    ("caffeinate -t 60 rm x", ("rm", "x"), ("caffeinate",)),
    ("proxychains -q curl example.com", ("curl", "example.com"), ("proxychains",)),
    ("proxychains4 -f p.conf curl example.com", ("curl", "example.com"), ("proxychains4",)),
    ("torsocks -u user -p pw curl example.com", ("curl", "example.com"), ("torsocks",)),
    ("strace -f -e trace=open -o log rm x", ("rm", "x"), ("strace",)),
    ("ltrace -o log -s 80 rm x", ("rm", "x"), ("ltrace",)),
    ("catchsegv rm x", ("rm", "x"), ("catchsegv",)),
    ("coproc rm x", ("rm", "x"), ("coproc",)),
    ("firejail --noprofile --private=/tmp rm x", ("rm", "x"), ("firejail",)),
    ("runuser -u deploy -- rm x", ("rm", "x"), ("runuser",)),
    ("su", ("sh",), ("su",)),
    ("su - root", ("sh",), ("su",)),
    ("busybox rm x", ("rm", "x"), ("busybox",)),
    ("xargs rm", ("rm",), ("xargs",)),
    ("xargs -0 -n 1 -P 4 -I {} rm {}", ("rm", "{}"), ("xargs",)),
    ("xargs -i{} rm {}", ("rm", "{}"), ("xargs",)),
    ("/usr/bin/sudo /usr/bin/env rm x", ("rm", "x"), ("sudo", "env")),
    ("taskset -c 0 rm x", ("rm", "x"), ("taskset",)),
    ("chrt -f 10 rm x", ("rm", "x"), ("chrt",)),
    ("valgrind --tool=memcheck rm x", ("rm", "x"), ("valgrind",)),
    ("unshare -r rm x", ("rm", "x"), ("unshare",)),
    ("systemd-run --user -- rm x", ("rm", "x"), ("systemd-run",)),
    ("setpriv --no-new-privs rm x", ("rm", "x"), ("setpriv",)),
    ("toybox rm x", ("rm", "x"), ("toybox",)),
    ("screen -dmS job rm x", ("rm", "x"), ("screen",)),
    ("tmux new -d rm x", ("rm", "x"), ("tmux",)),
    ("nsenter -t 1 -a rm x", ("rm", "x"), ("nsenter",)),
]


@pytest.mark.parametrize("command, argv, wrappers", PEELED)
def test_wrapper_is_peeled(command: str, argv: tuple[str, ...], wrappers: tuple[str, ...]) -> None:
    cmd = only(command)
    assert cmd.argv == argv
    assert cmd.wrappers == wrappers


def test_every_table_wrapper_is_covered() -> None:
    covered = {c.split()[0].rsplit("/", 1)[-1] for c, _, _ in PEELED}
    covered |= {c.split()[0] for c, *_ in STRINGS}
    assert set(WRAPPERS) - covered <= {"eatmydata", "nocache", "chronic", "fakeroot"}


# command, inner argv, wrappers, origin
STRINGS = [
    ("bash -c 'rm -rf /'", ("rm", "-rf", "/"), ("bash",), "bash -c"),
    ("sh -c 'rm -rf /'", ("rm", "-rf", "/"), ("sh",), "bash -c"),
    ("zsh -c 'rm -rf /'", ("rm", "-rf", "/"), ("zsh",), "bash -c"),
    ("dash -c 'rm -rf /'", ("rm", "-rf", "/"), ("dash",), "bash -c"),
    ("ksh -c 'rm -rf /'", ("rm", "-rf", "/"), ("ksh",), "bash -c"),
    ("ash -c 'rm -rf /'", ("rm", "-rf", "/"), ("ash",), "bash -c"),
    ("fish -c 'rm -rf /'", ("rm", "-rf", "/"), ("fish",), "bash -c"),
    ("busybox sh -c 'rm -rf /'", ("rm", "-rf", "/"), ("busybox", "sh"), "bash -c"),
    ("bash -lc 'rm -rf /'", ("rm", "-rf", "/"), ("bash",), "bash -c"),
    ("bash -e -o pipefail -c 'rm -rf /'", ("rm", "-rf", "/"), ("bash",), "bash -c"),
    ("bash --norc -xc 'rm -rf /' name arg", ("rm", "-rf", "/"), ("bash",), "bash -c"),
    ("/bin/bash -c 'rm -rf /'", ("rm", "-rf", "/"), ("bash",), "bash -c"),
    ("eval 'rm -rf /'", ("rm", "-rf", "/"), ("eval",), "eval"),
    ("eval rm -rf /", ("rm", "-rf", "/"), ("eval",), "eval"),
    ("su -c 'rm -rf /'", ("rm", "-rf", "/"), ("su",), "su -c"),
    ("su root -c 'rm -rf /'", ("rm", "-rf", "/"), ("su",), "su -c"),
    ("su - root -c 'rm -rf /'", ("rm", "-rf", "/"), ("su",), "su -c"),
    ("runuser -l deploy -c 'rm -rf /'", ("rm", "-rf", "/"), ("runuser",), "runuser -c"),
    ("script -q -c 'rm -rf /' /dev/null", ("rm", "-rf", "/"), ("script",), "script -c"),
    ("flock /tmp/lock -c 'rm -rf /'", ("rm", "-rf", "/"), ("flock",), "flock -c"),
    ("watch 'rm -rf /'", ("rm", "-rf", "/"), ("watch",), "watch"),
    ("watch -n 5 rm -rf /", ("rm", "-rf", "/"), ("watch",), "watch"),
    ("sg wheel -c 'rm -rf /'", ("rm", "-rf", "/"), ("sg",), "sg"),
    ("sg wheel 'rm -rf /'", ("rm", "-rf", "/"), ("sg",), "sg"),
    ("parallel 'rm -rf {}' ::: a b", ("rm", "-rf", "{}"), ("parallel",), "parallel"),
    ("parallel -j 4 rm -rf ::: a b", ("rm", "-rf"), ("parallel",), "parallel"),
    ("env -S 'rm -rf /'", ("rm", "-rf", "/"), ("env",), "env -S"),
    ("env --split-string='rm -rf' /", ("rm", "-rf", "/"), ("env",), "env -S"),
    ("sudo -s rm -rf /", ("rm", "-rf", "/"), ("sudo",), "sudo -s"),
    ("xargs sh -c 'rm -rf /'", ("rm", "-rf", "/"), ("xargs", "sh"), "bash -c"),
]


@pytest.mark.parametrize("command, argv, wrappers, origin", STRINGS)
def test_shell_strings_are_parsed_again(command: str, argv, wrappers, origin: str) -> None:
    cmd = only(command)
    assert cmd.argv == argv
    assert cmd.wrappers == wrappers
    assert cmd.origin == origin
    assert cmd.depth == 1


def test_nested_wrappers_and_assignments() -> None:
    cmd = only("sudo env FOO=1 timeout 5 bash -c 'rm -rf /'")
    assert cmd.argv == ("rm", "-rf", "/")
    assert cmd.wrappers == ("sudo", "env", "timeout", "bash")
    assert cmd.assignments == (("FOO", "1"),)
    assert cmd.origin == "bash -c"


def test_assignments_merge_across_wrappers() -> None:
    cmd = only("A=1 sudo B=2 env C=3 rm x")
    assert cmd.argv == ("rm", "x")
    assert cmd.assignments == (("A", "1"), ("B", "2"), ("C", "3"))


def test_safe_assignments_are_stripped_unknown_kept() -> None:
    cmd = only("NODE_ENV=test LC_ALL=C FOO=bar npm test")
    assert cmd.assignments == (("FOO", "bar"),)


def test_dangerous_assignment_through_env_is_reported() -> None:
    result = parse("env LD_PRELOAD=/tmp/x.so ls")
    assert result.commands[0].assignments == (("LD_PRELOAD", "/tmp/x.so"),)
    assert any(f.code == "SH006" for f in result.findings)


@pytest.mark.parametrize(
    "command, cwd",
    [
        ("env -C /srv ls", "/srv"),
        ("env --chdir=sub ls", "sub"),
        ("sudo -D /srv ls", "/srv"),
        ("cd app && env -C sub ls", "app/sub"),
    ],
)
def test_wrappers_that_set_the_directory(command: str, cwd: str) -> None:
    assert parse(command).commands[-1].cwd == cwd


def test_several_commands_in_a_shell_string() -> None:
    result = parse("bash -c 'cd /tmp && rm -rf x; ls'")
    assert not result.complex
    assert [c.argv for c in result.commands] == [("cd", "/tmp"), ("rm", "-rf", "x"), ("ls",)]
    assert [c.cwd for c in result.commands] == [None, "/tmp", "/tmp"]
    assert all(c.wrappers == ("bash",) for c in result.commands)


def test_cd_inside_bash_c_does_not_leak_but_eval_does() -> None:
    result = parse("bash -c 'cd /tmp'; rm -rf x")
    assert result.commands[-1].cwd is None
    result = parse("eval 'cd /tmp'; rm -rf x")
    assert result.commands[-1].cwd == "/tmp"


def test_outer_redirect_goes_to_the_first_inner_command() -> None:
    result = parse("bash -c 'echo a; echo b' > out.txt")
    assert [r.target for r in result.commands[0].redirects] == ["out.txt"]
    assert result.commands[1].redirects == ()


def test_empty_shell_string_keeps_the_shell_visible() -> None:
    cmd = only("bash -c ''")
    assert cmd.argv == ("bash", "-c", "")


def test_substitution_inside_shell_string_is_too_complex() -> None:
    result = parse("bash -c 'echo $(rm -rf ~)'")
    assert result.complex
    assert ("rm", "-rf", "~") in [c.argv for c in result.partial]


def test_depth_limit() -> None:
    command = "rm -rf /"
    for _ in range(MAX_DEPTH):
        command = "bash -c " + __import__("shlex").quote(command)
    assert not parse(command).complex
    deeper = "bash -c " + __import__("shlex").quote(command)
    result = parse(deeper)
    assert result.complex and "levels deep" in result.reason
    assert result.partial  # the outermost shells are still visible


def test_find_exec_emits_both_commands() -> None:
    result = parse("find . -name '*.tmp' -exec rm -f {} \\;")
    assert not result.complex
    assert [c.argv for c in result.commands] == [
        ("find", ".", "-name", "*.tmp", "-exec", "rm", "-f", "{}", ";"),
        ("rm", "-f", "{}"),
    ]
    inner = result.commands[1]
    assert inner.origin == "find -exec" and inner.wrappers == ("find",)


@pytest.mark.parametrize("action", ["-exec", "-execdir", "-ok", "-okdir"])
def test_find_actions(action: str) -> None:
    result = parse(f"sudo find / {action} rm -rf {{}} +")
    inner = result.commands[-1]
    assert inner.argv == ("rm", "-rf", "{}")
    assert inner.wrappers == ("sudo", "find")


def test_find_exec_shell_string() -> None:
    result = parse("find . -exec sh -c 'rm -rf \"$1\"' _ {} \\;")
    assert result.complex  # "$1" is an expansion
    assert any(c.argv[:2] == ("rm", "-rf") for c in result.partial)


def test_fd_exec() -> None:
    result = parse("fd -e tmp -x rm -f")
    assert result.commands[-1].argv == ("rm", "-f")


@pytest.mark.parametrize(
    "command, reason",
    [
        ("sudo -Z rm x", "unknown option -Z"),
        ("timeout --frobnicate 5 rm x", "unknown option --frobnicate"),
        ("nice -q rm x", "unknown option -q"),
    ],
)
def test_unknown_wrapper_options_are_too_complex(command: str, reason: str) -> None:
    result = parse(command)
    assert result.complex and reason in result.reason
    assert result.partial  # still analysed best effort


def test_source_is_recorded_with_its_origin() -> None:
    cmd = only("source .venv/bin/activate")
    assert cmd.argv == ("source", ".venv/bin/activate")
    assert cmd.origin == "source"
    assert only(". ./env.sh").origin == "source"


@pytest.mark.parametrize(
    "argv, string",
    [
        (("bash", "-c", "ls"), "ls"),
        (("bash", "-x", "-c", "ls"), "ls"),
        (("bash", "-c", "-x", "ls"), "ls"),
        (("bash", "-o", "errexit", "-c", "ls"), "ls"),
        (("bash", "-eoc", "pipefail", "ls"), "ls"),
        (("sh", "--", "script.sh"), None),
        (("bash", "script.sh", "-c"), None),
        (("bash",), None),
        (("python", "-c", "x"), None),
        (("fish", "--command=ls"), "ls"),
    ],
)
def test_shell_string_detection(argv, string) -> None:
    assert shell_string(argv) == string


def test_peel_leaves_plain_commands_alone() -> None:
    peeled = peel(("git", "status"))
    assert peeled.argv == ("git", "status") and peeled.wrappers == [] and peeled.shell is None


def test_non_suggestable_prefixes_cover_spec_list() -> None:
    spec = {"sh", "bash", "zsh", "fish", "csh", "tcsh", "ksh", "dash", "cmd", "powershell", "env", "xargs",
            "nice", "stdbuf", "nohup", "timeout", "time", "sudo", "doas", "pkexec"}
    assert spec <= NON_SUGGESTABLE


def test_ast_grep_is_not_sg() -> None:
    cmd = only("sg scan --interactive")
    assert cmd.argv == ("sg", "scan", "--interactive") and cmd.wrappers == ()

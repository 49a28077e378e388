"""Error lines of common tools → violations, checked against the plan (no sandbox run:
these are the parsing rules; the real-kernel tests show them on real output)."""

from __future__ import annotations

import pytest

from bastion.sandbox.plan import Plan
from bastion.sandbox.violations import LineScanner, describe, from_stderr, merge

PLAN = Plan(
    cwd="/work/proj",
    workspace="/work/proj",
    write_roots=("/work/proj",),
    readonly=(("/work/proj/.git/hooks", ".git/hooks is protected"), ("/work/proj/.git/config", ".git/config is protected")),
    hidden=(("/home/me/.ssh", True, "credential store: SSH keys"),),
    visible=(),
    home="/home/me",
)


@pytest.mark.parametrize(
    "line, kind, target",
    [
        ("touch: cannot touch '/etc/x': Read-only file system", "write", "/etc/x"),
        ("touch: cannot touch '/etc/x': Permission denied", "write", "/etc/x"),
        ("rm: cannot remove '/home/me/notes.txt': Read-only file system", "write", "/home/me/notes.txt"),
        ("mkdir: cannot create directory ‘/opt/new’: Read-only file system", "write", "/opt/new"),
        ("sh: 1: cannot create /etc/motd: Read-only file system", "write", "/etc/motd"),
        ("/bin/bash: line 1: .git/hooks/pre-commit: Read-only file system", "write", "/work/proj/.git/hooks/pre-commit"),
        ("bash: /usr/local/bin/x: Read-only file system", "write", "/usr/local/bin/x"),
        ("cat: /home/me/.ssh/id_rsa: Permission denied", "read", "/home/me/.ssh/id_rsa"),
        ("head: cannot open '/home/me/.ssh/id_rsa' for reading: Permission denied", "read", "/home/me/.ssh/id_rsa"),
        ("PermissionError: [Errno 13] Permission denied: '/home/me/.ssh/id_rsa'", "read", "/home/me/.ssh/id_rsa"),
        ("OSError: [Errno 30] Read-only file system: '/etc/hosts'", "write", "/etc/hosts"),
        ("error: could not write config file .git/config: Device or resource busy", "write", "/work/proj/.git/config"),
        ("error: could not lock config file /work/proj/.git/config: Read-only file system", "write", "/work/proj/.git/config"),
        ("mv: inter-device move failed: 'c2' to '.git/config'; unable to remove target: Device or resource busy",
         "write", "/work/proj/.git/config"),
        ("mv: cannot move 'x' to '.git/hooks/pre-commit': Read-only file system", "write", "/work/proj/.git/hooks/pre-commit"),
        ("fatal: could not create directory of '.git/hooks/x': Read-only file system", "write", "/work/proj/.git/hooks/x"),
        ("error: unable to update .git/hooks/x: Read-only file system", "write", "/work/proj/.git/hooks/x"),
        ("warning: unable to unlink '.git/hooks/x': Read-only file system", "write", "/work/proj/.git/hooks/x"),
    ],
)
def test_error_lines_become_violations(line, kind, target):
    found = from_stderr(f"some output\n{line}\n", PLAN, network=False)
    assert [(v["kind"], v["target"]) for v in found] == [(kind, target)]


@pytest.mark.parametrize(
    "line",
    [
        "touch: cannot touch 'src/x': Permission denied",  # inside the workspace: not the sandbox's doing
        "cat: /work/proj/missing: No such file or directory",
        "everything is fine",
        "Permission denied (publickey).",
    ],
)
def test_ordinary_errors_are_not_blamed_on_the_sandbox(line):
    assert from_stderr(line, PLAN, network=False) == []


def test_moving_a_mount_point_that_holds_protected_paths_is_a_violation():
    plan = Plan(cwd="/work/proj", workspace="/work/proj", write_roots=("/work/proj",), pinned=("/work/proj/.git",))
    found = from_stderr("mv: cannot move '.git' to '.git.old': Device or resource busy\n", plan, network=False)
    assert [(v["kind"], v["target"]) for v in found] == [("write", "/work/proj/.git")]
    assert "cannot be moved or removed" in found[0]["detail"]
    # an ordinary busy file inside the workspace is not the sandbox's doing
    assert from_stderr("mv: cannot move 'a' to 'b': Device or resource busy\n", plan, network=False) == []


def test_network_failures_without_a_proxy():
    found = from_stderr("curl: (6) Could not resolve host: example.com\n", PLAN, network=False)
    assert found == [{"kind": "network", "target": "example.com",
                      "detail": "the sandbox has no network (set sandbox.network.allowedDomains)"}]
    assert from_stderr("curl: (6) Could not resolve host: example.com\n", PLAN, network=True) == []


def test_merge_deduplicates_and_caps():
    many = [{"kind": "write", "target": f"/etc/{i}", "detail": "d"} for i in range(30)]
    merged = merge(many, many[:5])
    assert len(merged) == 21 and merged[-1] == {"kind": "more", "target": "", "detail": "10 more not listed"}


def test_describe_is_one_line():
    line = describe({"kind": "network", "target": "evil.com:443", "detail": "not in sandbox.network.allowedDomains"})
    assert line == "bastion: sandbox blocked a connection to evil.com:443 (not in sandbox.network.allowedDomains)"


def test_line_scanner_keeps_error_lines_across_chunks_in_bounded_memory():
    scanner = LineScanner(max_lines=3)
    scanner.feed(b"x" * 100_000 + b"\ntouch: cannot touch '/e")
    scanner.feed(b"tc/x': Read-only file system\n" + b"noise\n" * 1000)
    for _ in range(10):
        scanner.feed(b"rm: cannot remove '/etc/y': Read-only file system\n")
    assert scanner.text().splitlines() == [
        "touch: cannot touch '/etc/x': Read-only file system",
        "rm: cannot remove '/etc/y': Read-only file system",
        "rm: cannot remove '/etc/y': Read-only file system",
    ]

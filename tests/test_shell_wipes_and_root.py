"""The rules behind the newer hard blocks, one level below the decision table in
test_catastrophic_table.py: when a find expression deletes everything, when an rsync
mirror wipes its destination, which modes and capabilities grant root."""

from __future__ import annotations

import shlex

import pytest

from bastion.shell.meaning.analyse import analyse
from bastion.shell.meaning.checks.find_expr import deletes_everything
from bastion.shell.meaning.checks.root import root_caps, sets_id_bits
from bastion.shell.syntax.parse import parse

WS, HOME = "/home/dev/project", "/home/dev"


def hard(command: str) -> set[str]:
    analysis = analyse(parse(command), cwd=WS, home=HOME, workspace_roots=(WS,))
    return {f.code for f in analysis.hard_blocks}


@pytest.mark.parametrize(
    "args, everything",
    [
        (". -delete", True),
        ("-delete", True),  # no start point: .
        (". -mindepth 1 -delete", True),  # only leaves out . itself
        (". -depth -delete", True),
        (". -type f -delete", True),  # every file; the folders are left empty
        (". -type f,d -delete", True),
        (". -delete -name x", True),  # -delete runs before the test
        (". -print -delete", True),
        (". -exec rm -rf {} +", True),
        (". -exec /bin/rm {} ;", True),
        (". -false -o -delete", True),
        (". -name *.pyc -delete", False),
        (". ( -name *.pyc -o -name __pycache__ ) -delete", False),
        (". -maxdepth 1 -delete", False),
        (". -mindepth 1 -maxdepth 1 -exec rm -rf {} +", True),  # each top entry with all below it
        (". -maxdepth 0 -exec rm -r {} ;", True),
        (". -maxdepth 1 -execdir rm --recursive --force {} +", True),
        (". -maxdepth 1 -exec rm -f {} +", False),  # files only: folders stay
        (". -maxdepth 1 -name *.log -exec rm -rf {} +", False),
        (". -mindepth 2 -delete", False),  # keeps the top level
        (". -type d -empty -delete", False),
        (". -type d -delete", False),  # only empty folders go
        (". -path ./.git -prune -o -delete", False),
        (". -name keep -o -delete", False),
        (". ! -name keep -delete", False),
        (". -exec rmdir {} +", False),
        (". -exec grep -l x {} +", False),
        (". -ok rm {} ;", False),  # asks on find's input, which is empty
        (". -exec rm {};", False),  # no terminator: find refuses to run
        (". -delete (", False),
        (".", False),
    ],
)
def test_find_deletes_everything(args: str, everything: bool) -> None:
    assert deletes_everything(shlex.split(args)) is everything


def test_find_ok_with_fed_input_runs() -> None:
    assert deletes_everything(shlex.split(". -ok rm {} ;"), confirmed=True)
    assert "HB001" in hard("yes | find . -ok rm {} \\;")
    assert "HB001" not in hard("find . -ok rm {} \\;")


@pytest.mark.parametrize(
    "command, blocked",
    [
        ("rsync -a --delete empty/ ./", True),
        ("rsync -a --delete empty/ .", True),
        ("rsync -r --delete-after /tmp/e/. " + WS, True),
        ("rsync -a --delete empty/ ~/", True),
        ("rsync -a --delete empty/ /", True),
        ("rsync -a --delete host:empty/ ./", True),  # the source may be anywhere
        ("rsync -a --delete empty ./", False),  # no trailing slash: only ./empty is replaced
        ("rsync --delete empty/ ./", False),  # without -r/-a rsync refuses --delete
        ("rsync -a --delete --exclude .git up/ ./", False),
        ("rsync -a --delete -n empty/ ./", False),  # a dry run
        ("rsync -a --delete build/ dist/", False),
        ("rsync -a --delete public/ /var/www/", False),  # a deployment: asks
        ("rsync -a --delete ./ host:/srv/app/", False),
    ],
)
def test_rsync_mirror_wipes(command: str, blocked: bool) -> None:
    assert ("HB001" in hard(command)) is blocked


@pytest.mark.parametrize(
    "mode, sets",
    [
        ("u+s", True), ("+s", True), ("g+s", True), ("a=rwx,u+s", True), ("u=rwxs", True),
        ("4755", True), ("2755", True), ("6755", True), ("04755", True), ("7777", True),
        ("755", False), ("0755", False), ("1777", False), ("u-s", False), ("go-s", False), ("+x", False), ("a+rwX", False),
    ],
)
def test_sets_id_bits(mode: str, sets: bool) -> None:
    assert sets_id_bits(mode) is sets


@pytest.mark.parametrize(
    "caps, grants",
    [
        ("cap_setuid+ep", True), ("cap_setuid,cap_setgid=ep", True), ("=ep", True), ("all=eip", True),
        ("cap_sys_admin+p", True), ("CAP_DAC_OVERRIDE+ep", True),
        ("cap_net_bind_service=+ep", False), ("cap_net_raw+ep", False), ("cap_setuid-ep", False), ("cap_setuid+i", False),
    ],
)
def test_root_caps(caps: str, grants: bool) -> None:
    assert root_caps(caps) is grants


@pytest.mark.parametrize(
    "command, blocked",
    [
        ("chmod u+s /bin/bash", True),
        ("chmod 4755 /usr/bin/python3.11", True),
        ("chmod +s `which perl`", True),
        ("chmod g+s /usr/bin/vim", True),
        ("chmod u+s /usr/bin/env", True),
        ("cat /bin/bash > /tmp/x; chmod 4755 /tmp/x", True),
        ("cp /bin/dash /tmp/ && chmod u+s /tmp/dash", True),
        ("install -m 4755 /bin/sh /tmp/s", True),
        ("install -m u+s -t /tmp /usr/bin/python3", True),
        ("setcap =ep /usr/bin/node", True),
        ("bash -c 'cp /bin/sh /tmp/x; chmod +s /tmp/x'", True),
        ("chmod u+s ./build/mytool", False),
        ("chmod 4755 /usr/bin/sudo", False),
        ("chmod u+s /usr/bin/passwd", False),
        ("cp /bin/bash /tmp/b && chmod 755 /tmp/b", False),
        ("install -m 755 /bin/sh /tmp/s", False),
        ("install -m 4755 ./tool /usr/local/bin/tool", False),
        ("setcap cap_net_bind_service=+ep /usr/bin/python3", False),
        ("setcap -r /usr/bin/python3", False),
        ("setcap cap_setuid+ep ./server", False),
    ],
)
def test_root_grants(command: str, blocked: bool) -> None:
    assert ("HB017" in hard(command)) is blocked

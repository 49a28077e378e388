"""Destroyers besides rm, dd and mkfs: what they would destroy decides, not their name.

Archivers that delete their sources, ``shred -u`` over a glob, volume managers that
destroy a pool or volume, partitioners fed a new table, recursive ACL changes: a
catastrophic target is a hard block in every mode; the everyday forms are not denied.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bastion.engine import Guard
from bastion.model import Mode, ToolCall, Verdict

DENIED = [
    "7z a -sdel x.7z ~",
    "7z a -sdel x.7z /etc",
    "tar --remove-files -cf h.tar ~",
    "tar -czf /tmp/h.tgz --remove-files /home",
    "zip -rm /tmp/h.zip ~",
    "zip -r --move x.zip /etc",
    "shred -u ~/*",
    "find ~ -type f -exec shred -u {} +",
    "rsync -a --delete empty/ ~/",
    "find ~ -delete",
    "find / -name '*' -delete",
    "xargs rm -rf <<< /etc",
    "zfs destroy -r pool/ROOT",
    "zpool destroy tank",
    "lvremove -f vg/root",
    "sudo vgremove -f vg0",
    "sudo pvremove -ff /dev/sda2",
    "sudo btrfs subvolume delete /",
    "wipefs -a /dev/sdb",
    "wipefs --all --force /dev/nvme0n1",
    "echo -e 'o\\nw' | fdisk /dev/sda",
    "sfdisk /dev/sda < layout.txt",
    "parted -s /dev/sda mklabel gpt",
    "sgdisk -Z /dev/sda",
    "sudo mdadm --zero-superblock /dev/sda1",
    "setfacl -R -m o::rwx /",
    "setfacl -R -m o::rwx ~",
    "chmod -R 777 /",
    "chmod -R 777 /usr",
]

NOT_DENIED = [
    "7z a backup.7z src",
    "tar --remove-files -cf logs.tar build/logs",
    "shred -u secrets.tmp",
    "zip -r out.zip src",
    "zfs list",
    "zfs destroy tank/data@snap1",
    "zpool status",
    "lvs",
    "lvremove vg/scratch",
    "wipefs /dev/sdb",
    "wipefs -n -a /dev/sdb",
    "fdisk -l",
    "sfdisk -d /dev/sda",
    "parted -l",
    "sgdisk -p /dev/sda",
    "chmod -R 755 build",
    "setfacl -m u:bob:r notes.txt",
    "find /var/lib -name '*.log' -delete",
    'echo "never run: zpool destroy tank"',
]


@pytest.fixture(scope="module")
def guards(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[Mode, Guard]]:
    ws = tmp_path_factory.mktemp("ws")
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    return str(ws), {m: Guard.from_settings(str(ws), isolated=True, mode=m) for m in (Mode.DEFAULT, Mode.BYPASS)}


def _verdict(guards: tuple[str, dict[Mode, Guard]], mode: Mode, command: str) -> Verdict:
    ws, by_mode = guards
    return by_mode[mode].check(ToolCall("Bash", {"command": command}, cwd=ws)).verdict


@pytest.mark.parametrize("command", DENIED)
def test_catastrophic_destroyer_is_denied_in_every_mode(guards: tuple[str, dict[Mode, Guard]], command: str) -> None:
    assert _verdict(guards, Mode.BYPASS, command) is Verdict.DENY
    assert _verdict(guards, Mode.DEFAULT, command) is Verdict.DENY


@pytest.mark.parametrize("command", NOT_DENIED)
def test_look_alike_is_not_denied(guards: tuple[str, dict[Mode, Guard]], command: str) -> None:
    assert _verdict(guards, Mode.DEFAULT, command) is not Verdict.DENY


def test_workspace_is_not_the_home(guards: tuple[str, dict[Mode, Guard]]) -> None:
    assert Path(guards[0]) != Path.home()

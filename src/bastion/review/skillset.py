"""Guard skills: Markdown pages the guard agent can read, with a little front matter.

    ---
    name: python
    description: Python security patterns (subprocess, eval, pickle)
    language: python
    auto_invoke: true
    ---
    # body …

Sources, later ones overriding earlier ones by ``name``: the built-in set (this
package's ``skills/``), the user's ``<config_dir>/guard-skills/`` and — only when the
project is trusted — the project's ``.bastion/guard-skills/``. A skill's body becomes
part of the guard agent's instructions, which is why an untrusted project cannot add
one: it could simply say "answer ALLOW".

Front matter is a flat list of ``key: value`` lines (strings, ``true``/``false``, and
``[a, b]`` or ``a, b`` lists for ``language``); it is read without a YAML library, so
loading skills costs nothing on the hook path. A broken file is skipped with a one-line
error naming it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BUILTIN_DIR = Path(__file__).with_name("skills")
SKILL_DIR_NAME = "guard-skills"
#: A skill larger than this is refused (it would crowd out the call under review).
MAX_SKILL_BYTES = 32 * 1024
#: At most this many skills are read from one directory.
MAX_SKILLS_PER_DIR = 64


class SkillError(ValueError):
    """A skill file cannot be used (one line, naming the file)."""


@dataclass(frozen=True)
class Skill:
    """A reviewer skill: instructions the model may load for a kind of command."""

    name: str
    description: str
    body: str
    languages: tuple[str, ...] = ()
    auto_invoke: bool = False
    path: str = ""
    scope: str = "builtin"  # builtin | user | project


@dataclass
class SkillSet:
    """The skills in force, by name, and the files that could not be read."""

    skills: dict[str, Skill] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.skills)

    def get(self, name: str) -> Skill | None:
        return self.skills.get(name) or self.skills.get(name.strip().lower())

    def auto_for(self, languages: Iterable[str]) -> list[Skill]:
        """Auto-invoked skills for the detected languages, in the order of ``languages``."""
        chosen: list[Skill] = []
        for language in languages:
            for skill in self.skills.values():
                if skill.auto_invoke and language in skill.languages and skill not in chosen:
                    chosen.append(skill)
        return chosen


def _scalar(raw: str) -> str:
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def _languages(raw: str) -> tuple[str, ...]:
    value = raw.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    items = (_scalar(part).lower() for part in value.split(","))
    return tuple(item for item in items if item and item not in ("-", "—", "none", "null", "~"))


def parse_skill(text: str, *, path: str = "<skill>", scope: str = "builtin") -> Skill:
    """Read one skill file's text; raise :class:`SkillError` when it is unusable."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise SkillError(f"{path}: a guard skill starts with a '---' front matter block")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise SkillError(f"{path}: the front matter block is not closed with '---'") from None
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:end], start=2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip() or key != key.lstrip():
            raise SkillError(f"{path}:{number}: expected 'key: value' in the front matter")
        meta[key.strip()] = value
    stem = Path(path).stem
    name = _scalar(meta.get("name", "")) or stem
    if "\n" in name or len(name) > 64:
        raise SkillError(f"{path}: name must be one line of at most 64 characters")
    description = _scalar(meta.get("description", ""))
    if not description:
        raise SkillError(f"{path}: the front matter needs a description")
    auto_raw = _scalar(meta.get("auto_invoke", "false")).lower()
    if auto_raw not in ("true", "false", "yes", "no"):
        raise SkillError(f"{path}: auto_invoke must be true or false, not {auto_raw!r}")
    body = "\n".join(lines[end + 1 :]).strip()
    if not body:
        raise SkillError(f"{path}: the skill has no body")
    return Skill(
        name=name.strip().lower(),
        description=" ".join(description.split()),
        body=body,
        languages=_languages(meta.get("language", "")),
        auto_invoke=auto_raw in ("true", "yes"),
        path=path,
        scope=scope,
    )


def _read_dir(directory: Path, scope: str, into: SkillSet) -> None:
    try:
        entries = sorted(p for p in directory.iterdir() if p.suffix == ".md")
    except FileNotFoundError:
        return
    except OSError as exc:
        into.errors.append(f"{directory}: cannot list guard skills: {exc.strerror or type(exc).__name__}")
        return
    if len(entries) > MAX_SKILLS_PER_DIR:
        into.errors.append(f"{directory}: more than {MAX_SKILLS_PER_DIR} guard skills; reading the first {MAX_SKILLS_PER_DIR}")
        entries = entries[:MAX_SKILLS_PER_DIR]
    for path in entries:
        try:
            if not path.is_file():
                continue
            if path.stat().st_size > MAX_SKILL_BYTES:
                raise SkillError(f"{path}: larger than {MAX_SKILL_BYTES} bytes")
            text = path.read_text(encoding="utf-8")
            skill = parse_skill(text, path=str(path), scope=scope)
        except SkillError as exc:
            into.errors.append(str(exc))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            into.errors.append(f"{path}: cannot read guard skill: {getattr(exc, 'strerror', None) or type(exc).__name__}")
            continue
        into.skills[skill.name] = skill


def skill_dirs(policy: Any, env: Mapping[str, str] | None = None) -> list[tuple[Path, str]]:
    """The directories to read, lowest precedence first, with their scope.

    The project's directory is listed only when ``policy.trusted``.
    """
    from .. import state

    env = env if env is not None else os.environ
    dirs = [(BUILTIN_DIR, "builtin"), (state.config_dir(env) / SKILL_DIR_NAME, "user")]
    root = getattr(policy, "project_root", "")
    if root and getattr(policy, "trusted", False):
        dirs.append((Path(root) / ".bastion" / SKILL_DIR_NAME, "project"))
    return dirs


def load_skills(policy: Any = None, env: Mapping[str, str] | None = None) -> SkillSet:
    """Every guard skill in force for ``policy`` (built-ins only when ``policy`` is None)."""
    found = SkillSet()
    dirs = skill_dirs(policy, env) if policy is not None else [(BUILTIN_DIR, "builtin")]
    for directory, scope in dirs:
        _read_dir(directory, scope, found)
    return found

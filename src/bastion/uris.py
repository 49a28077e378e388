"""``file://`` URIs: the local path one names. The tool model (a call's paths) and the
MCP argument reader both read them, so the rule lives below both."""


def file_uri_path(value: str) -> str | None:
    """The local path of a ``file://`` URI, or None."""
    if not value[:7].lower() == "file://":
        return None
    from urllib.parse import unquote, urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.netloc not in ("", "localhost"):
        return "//" + parts.netloc + unquote(parts.path)
    return unquote(parts.path) or None

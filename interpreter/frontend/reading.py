"""Read a file a user named (ruleset, base, record): a regular file only, at most its size limit, UTF-8 text.

Every reader of cardrules goes through `read_text`, so `/dev/zero`, a FIFO or a 50 MB file fails
at once with an error instead of filling the memory, and a file that is not UTF-8 is refused at
the line and column of its first bad byte.
"""
from __future__ import annotations

import os
import stat

from ..errors import Diagnostic, Pos, RulesetError, UsageError

KINDS = {stat.S_IFDIR: "a folder", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
         stat.S_IFIFO: "a pipe", stat.S_IFSOCK: "a socket"}


def read_bytes(file: str, limit: int, what: str = "ruleset") -> bytes:
    """The bytes of a regular file; UsageError if it cannot be read or is not a regular file,
    RulesetError (too-large, at 1:1) if it holds more than `limit` bytes. Never reads more."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below like any non-file
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UsageError(f"{file}: cannot read the file: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = KINDS.get(stat.S_IFMT(st.st_mode), "something other than a file")
            raise UsageError(f"{file}: this is {kind}, not a {what} file; give the path of a {what} file")
        data = _read_up_to(fd, limit + 1)
    except OSError as exc:
        raise UsageError(f"{file}: cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        size = max(len(data), st.st_size)
        raise RulesetError([Diagnostic(Pos(file, 1, 1), f"the file is too large for a {what} ({size:,} bytes, "
                                       f"at most {limit:,})", "too-large",
                                       f"a {what} needs far less; is this the right file?")])
    return data


def _read_up_to(fd: int, n: int) -> bytes:
    """At most n bytes from a file descriptor (one read may return fewer than asked)."""
    parts, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def decode(file: str, data: bytes, what: str = "ruleset") -> str:
    """UTF-8 text with every line break as '\\n' (as Python's text mode reads it); a bad byte is a
    RulesetError (code encoding) at its line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError([_bad_byte(file, data, exc.start, what)]) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _bad_byte(file: str, data: bytes, start: int, what: str) -> Diagnostic:
    """The diagnostic for the first byte at which data stops being UTF-8."""
    before = data[:start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    line_start = before.rfind(b"\n") + 1
    line = before.count(b"\n") + 1
    col = len(before[line_start:].decode("utf-8")) + 1
    byte = data[start]
    guess = bytes([byte]).decode("cp1252", errors="ignore")
    seen = f" (in Latin-1 or Windows-1252 it would be '{guess}')" if guess.isprintable() and byte >= 0x80 else ""
    return Diagnostic(Pos(file, line, col), f"the {what} is not UTF-8 text: byte 0x{byte:02X} here is not valid "
                      f"UTF-8{seen}", "encoding", "save the file as UTF-8 (your editor's 'save with encoding')")


def read_text(file: str, limit: int, what: str = "ruleset") -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes (see read_bytes and decode)."""
    return decode(file, read_bytes(file, limit, what), what)


def read_lines(file: str, limit: int) -> list | None:
    """The lines of a file for showing them under a message (bad bytes shown as U+FFFD); None if the
    file cannot be read within limit."""
    try:
        data = read_bytes(file, limit)
    except (UsageError, RulesetError):
        return None
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n").split("\n")

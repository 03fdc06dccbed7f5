"""Games kept as they go: `play -o FILE` rewrites the game's record after every move, atomically
(a temporary file in the same folder, then os.replace), so a crash or a quit loses nothing and the
file always holds a whole record that `replay` reads and `play --resume` continues."""
from __future__ import annotations

import json
import os
import tempfile

from ...errors import UsageError
from ..records import HUMAN, kept_record


class Keeper:
    """Where a game is kept: its record file, written whole after every change."""

    def __init__(self, path: str):
        self.path = path
        self.moves = 0          # moves in the file as last written

    def keep(self, session) -> None:
        """Write the session's game as it stands."""
        names = [session.bot_names.get(k, HUMAN) for k in range(session.players)]
        record = kept_record(session.game, session.program, session.st, session.seed, names)
        write_atomically(self.path, json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        self.moves = len(record["moves"])


def write_atomically(path: str, text: str) -> None:
    """Replace the file's content by text in one step: a reader sees the old file or the new one."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
        os.chmod(tmp, 0o666 & ~umask())      # as open() would make it, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise UsageError(f"{path}: cannot write the game's record: {exc.strerror or exc}") from None


def umask() -> int:
    """The process's file mode mask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask

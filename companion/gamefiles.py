"""The data files games read (:class:`companion.protocol.Files`): the files each game ships in
its own package, and files a user made, such as a board traced from their own copy.

This is the I/O edge for game data: games only parse the text they are handed.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from companion.protocol import Game


@cache  # shipped files never change while the companion runs
def _shipped(package: str, name: str) -> str:
    return resources.files(package).joinpath(name).read_text("utf-8")


class GameFiles:
    """One game's files. ``user_dir`` is where a user's relative file names are looked for
    (the data folder's ``boards``, or the folder of the record being read)."""

    def __init__(self, game: Game[Any, Any, Any], user_dir: Path | None = None) -> None:
        self.package = type(game).__module__.rpartition(".")[0]
        self.user_dir = user_dir

    def shipped(self, name: str) -> str:
        return _shipped(self.package, name)

    def user(self, ref: str) -> str:
        """A user's file, by its name inside ``user_dir``: a setup line in a record, which may
        come from anyone, must not make the companion read a file anywhere else."""
        if self.user_dir is None:
            raise FileNotFoundError(2, "no folder of your own files is open here", ref)
        base = self.user_dir.resolve()
        path = (base / ref).resolve()
        if not path.is_relative_to(base):
            raise PermissionError(13, f"only files in {self.user_dir} can be used", ref)
        return path.read_text("utf-8")

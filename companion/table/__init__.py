"""The table service: one authoritative game per table, crash-safe storage, undo, corrections."""

from companion.table.service import Ack, Event, Game, Refused, TableService
from companion.table.storage import StorageError

__all__ = ["Ack", "Event", "Game", "Refused", "StorageError", "TableService"]

"""The companion's parts for the request being served: the one typed way the blueprints reach
what :func:`web.app.create_app` keeps on ``app.extensions["companion"]``."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from flask import current_app

if TYPE_CHECKING:  # web.app imports the blueprints that import this
    from web.app import Companion


def companion() -> Companion:
    return cast("Companion", current_app.extensions["companion"])

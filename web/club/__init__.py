"""The club server's web side: the Flask app over :class:`companion.club.store.ClubStore`, its
API for tables and the admin, its public pages, and the ``companion club`` commands.

It is its own app (``create_club_app``), served by the same cheroot server as a table's, but it
holds no table service: the club's truth is PostgreSQL, and any number of these processes can
serve one club.
"""

from web.club.app import create_club_app

__all__ = ["create_club_app"]

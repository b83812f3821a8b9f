"""The phone-friendly web companion: table screen, phones, host page.

``create_app`` builds the Flask app around one :class:`companion.table.TableService`;
``companion serve`` (``web.cli``) runs it under cheroot. See docs/web.md.
"""

from web.app import create_app

__all__ = ["create_app"]

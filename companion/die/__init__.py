"""The DIY smart die: its frame protocol, its serial and BLE sources, and ``companion die``.

The firmware lives in ``firmware/``; ``firmware/PROTOCOL.md`` is the contract between the two.
"""

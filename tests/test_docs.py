"""The README and docs/ point only at files that exist: a screenshot a page's test forgot to
take, or a doc renamed, shows up here rather than as a broken picture on the project's page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "hardware.md", *sorted((ROOT / "docs").glob("*.md"))]
# Markdown links and images, and HTML <img src=...>; the target up to a '#' or a space.
LINK = re.compile(r"\]\(([^)#\s]+)[^)]*\)|<img[^>]*\ssrc=\"([^\"#]+)\"")


def targets(doc: Path) -> list[str]:
    found = []
    in_code = False
    for line in doc.read_text("utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for m in LINK.finditer(line):
            target = m.group(1) or m.group(2)
            if "://" not in target and not target.startswith(("mailto:", "/")):
                found.append(target)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_picture_in_the_docs_exists(doc: Path) -> None:
    missing = [t for t in targets(doc) if not (doc.parent / t).exists()]
    assert not missing, f"{doc.relative_to(ROOT)} points at files that do not exist: {missing}"


def test_the_docs_are_read() -> None:
    # The README alone links a dozen files; finding none would mean the pattern broke.
    assert len(targets(ROOT / "README.md")) > 10

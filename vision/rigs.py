"""The labelled photo sets as *rigs*: one camera over one table each.

A reader tuned on one rig can look excellent there and fail on the next, so everything that
learns or measures works on rigs, never on loose photos: the networks train on some rigs and
are measured on a rig they never saw (:func:`leave_one_out`). A rig is a folder with a
``labels.json`` in the format of ``datasets/dice-photos`` (``{photo: [{"value", "box"}]}``);
augmented copies of a photo stay inside their folder, so splitting by folder never puts a
photo on both sides.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Where the project's shared data sets live in a development checkout (next to the repository).
DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


@dataclass(frozen=True)
class Rig:
    """One labelled folder of photos from one camera over one table."""

    folder: Path

    @property
    def name(self) -> str:
        return self.folder.name

    def labels(self) -> dict[str, list[dict[str, Any]]]:
        """``labels.json``, checked: every die needs a value 1-6 and a box."""
        path = self.folder / "labels.json"
        if not path.exists():
            raise FileNotFoundError(f"{self.folder} has no labels.json")
        labels: dict[str, list[dict[str, Any]]] = json.loads(path.read_text())
        for photo, dice in labels.items():
            for die in dice:
                if die.get("value") not in range(1, 7) or len(die.get("box", [])) != 4:
                    raise ValueError(
                        f"{path}: bad label in {photo}: {die!r} (each die needs a "
                        "value 1-6 and a box [x0, y0, x1, y1])"
                    )
        return labels

    def photos(self) -> list[str]:
        return sorted(self.labels())

    def split(self, photos: int, dice: int = 0, seed: int = 1) -> tuple[list[str], list[str]]:
        """At least ``photos`` photos holding at least ``dice`` labelled dice, chosen at
        random (by ``seed``), and the rest. Augmented copies of a photo stay on one side:
        Roboflow's exports name them alike up to ``_jpg`` (a rig whose photos all share that
        name, as ``single-grey``'s ``i_jpg-…`` do, has no copies to keep together)."""
        groups: dict[str, list[str]] = {}
        for name in self.photos():
            groups.setdefault(re.split(r"_jpg|\.", name)[0], []).append(name)
        if len(groups) == 1:
            groups = {name: [name] for name in self.photos()}
        keys = sorted(groups)
        random.Random(seed).shuffle(keys)
        labels = self.labels()
        chosen: list[str] = []
        for key in keys:
            if len(chosen) >= photos and sum(len(labels[n]) for n in chosen) >= dice:
                break
            chosen += groups[key]
        taken = set(chosen)
        return chosen, [n for n in self.photos() if n not in taken]


def find_rigs(root: Path = DATASETS) -> list[Rig]:
    """Every labelled folder under ``root`` (it and its subfolders), by name; two rigs may not
    share a name, since records and reports name rigs by it."""
    root = Path(root)
    rigs = sorted((Rig(p.parent) for p in root.rglob("labels.json")), key=lambda r: r.name)
    names = [r.name for r in rigs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{root}: two labelled folders named {', '.join(twice)}")
    return rigs


def rig_sizes(rigs: Iterable[Rig]) -> dict[str, int]:
    """How many photos of each rig: what a network's record says it was trained on."""
    return {r.name: len(r.labels()) for r in rigs}


def leave_one_out(rigs: Sequence[Rig]) -> list[tuple[Rig, list[Rig]]]:
    """Each rig with all the others: read the first with networks trained on the rest."""
    return [(held, [r for r in rigs if r is not held]) for held in rigs]

"""Command line: ``python -m vision read|evaluate|label|calibrate``.

python -m vision read IMAGE... [--json] [--draw DIR] [--calibration FILE]
python -m vision evaluate DIR [--json] [--mistakes FILE] [--calibration FILE]
python -m vision label DIR [--force] [--calibration FILE]
python -m vision calibrate --camera SPEC [--families red,blue,...] [--tray auto|none|x,y ...]
                           [--rolls N] [--out FILE]
python -m vision adapt PHOTO... [--dice N] [--calibration FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import tray
from vision.adapt import ROLLS, AdaptError, adapt_calibration
from vision.calibration import Calibration, CalibrationError, default_path
from vision.cameras import CameraError, FolderSource, FrameSource, open_camera
from vision.colour import calibrate_palette, die_colour
from vision.draw import annotate, mistake_sheet
from vision.evaluation import evaluate
from vision.net import MIN_HEAT, NOT_A_DIE_FROM_ADAPTED
from vision.reader import ClassicReader, DiceReader
from vision.still import MotionGate


def _reader(args: argparse.Namespace) -> DiceReader:
    cal = Calibration.load(args.calibration) if args.calibration else None
    return DiceReader(cal)


def cmd_read(args: argparse.Namespace) -> int:
    reader = _reader(args)
    results = {}
    for name in args.images:
        image = cv2.imread(name)
        if image is None:
            print(f"error: cannot read {name} as an image", file=sys.stderr)
            return 2
        dice = reader.read(image, args.count)
        results[name] = [d.as_json() for d in dice]
        if args.draw:
            out = Path(args.draw)
            out.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / (Path(name).stem + ".png")), annotate(image, dice))
        if not args.json:
            values = " ".join(str(d.value) if d.value is not None else "?" for d in dice)
            print(f"{name}: {len(dice)} dice: {values}")
            for d in dice:
                shown = d.value if d.value is not None else f"unsure ({d.reason})"
                print(
                    f"  {shown!s:<34} box {list(d.box)}  {d.colour:<7} "
                    f"confidence {d.confidence:.2f}"
                )
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


def _progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    end = "\n" if done == total else ""
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
        end=end,
        file=sys.stderr,
        flush=True,
    )


def cmd_evaluate(args: argparse.Namespace) -> int:
    reader = _reader(args)
    try:
        score = evaluate(Path(args.dir), reader.read, progress=_progress_bar)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(score.as_json(), indent=1) if args.json else score.report())
    if args.mistakes:
        kinds = [m.kind for m in score.mistakes]
        if not kinds:
            print("no mistakes to draw: every die read right, and no phantoms", file=sys.stderr)
            return 0
        cv2.imwrite(str(args.mistakes), mistake_sheet(Path(args.dir), score.mistakes))
        counts = ", ".join(
            f"{kinds.count(k)} {k}" for k in ("wrong", "unsure", "missed", "phantom")
        )
        print(f"wrote {args.mistakes}: {len(kinds)} dice to look at ({counts})", file=sys.stderr)
    return 0


def cmd_label(args: argparse.Namespace) -> int:
    """A first labels.json for a folder of one's own photos, from what the reader reads: a
    person then checks values instead of typing them all, and fills in the unsure ones."""
    folder = Path(args.dir)
    out = folder / "labels.json"
    if out.exists() and not args.force:
        print(
            f"error: {out} exists; it may hold checked labels. --force replaces it", file=sys.stderr
        )
        return 2
    try:
        names = [p.name for p in FolderSource(folder).files]
    except CameraError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    reader = _reader(args)
    labels: dict[str, list[dict[str, Any]]] = {}
    for i, name in enumerate(names):
        image = cv2.imread(str(folder / name))
        if image is None:
            print(f"error: cannot read {folder / name} as an image", file=sys.stderr)
            return 2
        labels[name] = [{"box": list(d.box), "value": d.value} for d in reader.read(image)]
        _progress_bar(i + 1, len(names))
    out.write_text(json.dumps(labels, indent=1) + "\n")
    dice = [d for ds in labels.values() for d in ds]
    unsure = sum(d["value"] is None for d in dice)
    print(
        f"wrote {out}: {len(dice)} dice on {len(names)} pictures, as read. Check every value "
        "against the pictures (read --draw shows them), add any die it missed, and delete "
        "any that is not a die."
    )
    if unsure:
        print(
            f'Unsure of {unsure}: their "value" is null. Fill each in (1-6); evaluate '
            "and vision.train refuse the file until then."
        )
    return 0


def _ask(prompt: str, interactive: bool) -> None:
    """Wait for Enter when a person is at the keyboard; just say what happens otherwise."""
    if interactive:
        input(f"{prompt} Press Enter when ready... ")
    else:
        print(prompt)


LIVE_SKIP = 5  # frames a live camera is read before the one taken, for its exposure


def _grab(camera: FrameSource, what: str, skip: int) -> np.ndarray:
    """One frame; live cameras get ``skip`` frames first so exposure catches up."""
    frame = None
    for _ in range(skip + 1):
        frame = camera.read()
        if frame is None:
            break
    if frame is None:
        raise CameraError(f"the camera gave no frame for {what}")
    return frame


# A die needs this many pixels across to be read at all, and this many to be read well.
# Held out (each rig read by networks that never saw it, the five rigs' 10,043 dice by the
# longer side of their box; docs/vision.md, *Measured in the twenty-second session*), dice
# were read right 13% of the time at 16-24 px, 43% at 24-32 and 65% at 32-48.
SMALLEST_DIE = 12.0
GOOD_DIE = 32.0
# The outline against the empty tray and the reader may measure a die this differently
# (a ratio) before calibrate says so: more means a moved camera or a tray that was not empty.
SIZE_AGREEMENT = 1.3


def _tray(empty: np.ndarray, spec: str, say: Callable[[str], None]) -> list[list[float]] | None:
    """The tray region: found on the empty frame ("auto"), none, or corners given in pixels."""
    if spec == "none":
        return None
    if spec != "auto":
        return tray.parse(spec, empty.shape)
    try:
        found = tray.find_tray(empty)
    except tray.TrayError as e:
        say(f"warning: {e}. The whole picture will be read.")
        return None
    share = cv2.contourArea(tray.in_pixels(found, (1, 1))) * 100
    say(f"  tray found on the empty frame: {len(found)} corners, {share:.0f}% of the picture")
    return found


def _check_die_size(outlined: list[float], read: list[float], say: Callable[[str], None]) -> None:
    """Say what the measured die size means for reading, and whether the two measures
    (outline against the empty tray, and the reader's own) agree."""
    side = float(np.median(outlined))
    if side < SMALLEST_DIE:
        raise CalibrationError(
            f"the dice are only {side:.0f} px across; the reader needs at least "
            f"{SMALLEST_DIE:.0f} ({GOOD_DIE:.0f} or more to read them well): move the camera "
            "closer or raise its resolution"
        )
    if side < GOOD_DIE:
        say(
            f"warning: the dice are {side:.0f} px across; {GOOD_DIE:.0f} or more reads them "
            "better (smaller dice are missed or left unsure far more often): move the camera "
            "closer or raise its resolution if you can."
        )
    if read:
        seen = float(np.median(read))
        if max(seen, side) / min(seen, side) > SIZE_AGREEMENT:
            say(
                f"warning: the dice measure {side:.0f} px against the empty tray but the reader "
                f"sees them {seen:.0f} px across: check that the tray was empty in step 1 and "
                "that the camera has not moved, then calibrate again."
            )
    else:
        say(
            "warning: the reader found none of the dice by itself; check the light and "
            "focus, and that the dice show their pips."
        )


# A live camera waits this many frames for a roll to start and settle (two minutes at 30
# frames a second) before calibrate stops taking rolls.
ROLL_WAIT_FRAMES = 3600


def _grab_roll(camera: FrameSource, what: str) -> np.ndarray:
    """A live camera's frame once the dice have moved and then settled (vision.still): the
    player just rolls, and the picture is taken when the dice stop."""
    gate = MotionGate()
    gate.update(_grab(camera, what, 0))  # what lies there now: the last roll, or a hand
    moved = False
    for _ in range(ROLL_WAIT_FRAMES):
        frame = _grab(camera, what, 0)
        still = gate.update(frame)
        moved = moved or gate.still_for == 0
        if moved and still:
            return frame
    raise CameraError(f"no roll seen for {what} in {ROLL_WAIT_FRAMES} frames")


def _adapt(
    cal: Calibration,
    camera: FrameSource,
    rolls: int,
    interactive: bool,
    live: bool,
    say: Callable[[str], None],
    step: int,
    dice: int,
) -> None:
    """The last step: photos of ``rolls`` rolls of all ``dice`` (fewer rolls when a folder of
    pictures runs out, or when a live camera sees no roll for a while), the face classifier
    adapted to the rig from them and the detector's threshold and "not a die" cut chosen
    (:mod:`vision.adapt`).
    A live camera takes each roll's picture when its dice stop."""
    frames: list[np.ndarray] = []
    if live:
        _ask(
            f"Step {step}: roll all the dice into the tray {rolls} times, letting them stop "
            "each time (a picture is taken when they do).",
            interactive,
        )
    for i in range(1, rolls + 1):
        if not live:
            _ask(f"Step {step}, roll {i} of {rolls}: roll all the dice into the tray.", interactive)
        try:
            frames.append(
                _grab_roll(camera, f"roll {i}") if live else _grab(camera, f"roll {i}", 0)
            )
        except CameraError:
            break
        if live:
            say(f"  roll {i} of {rolls}: taken")
    if not frames:
        say("  no pictures of rolls: the face classifier is used as shipped, not adapted")
        return
    try:
        found = adapt_calibration(cal, frames, dice=[dice] * len(frames))
    except AdaptError as e:
        say(f"warning: {e}. The face classifier is used as shipped, not adapted.")
        return
    say(
        f"  the face classifier adapted to this rig from {found} dice on {len(frames)} rolls; "
        f"{_thresholds(cal)}"
    )


def _thresholds(cal: Calibration) -> str:
    """What the rolls chose for the rig, beside what is shipped."""
    return (
        f"the detector's threshold for it {cal.min_heat} (as shipped {MIN_HEAT}), "
        f'its finds dropped from {cal.not_a_die_from} "not a die" '
        f"(as adapted by default {NOT_A_DIE_FROM_ADAPTED})"
    )


def calibrate(
    camera: FrameSource,
    families: Sequence[str],
    interactive: bool,
    live: bool = False,
    say: Callable[[str], None] = print,
    tray_spec: str = "auto",
    rolls: int = ROLLS,
) -> Calibration:
    """The guided setup: an empty tray (and where the tray is), then each family's dice in
    turn (their colour and size), then ``rolls`` rolls to adapt the face classifier to the
    rig's light and dice. A ``live`` camera (not a folder of pictures) is read a few frames
    before each picture, for its exposure, and takes each roll when its dice stop."""
    cal = Calibration()
    _ask("Step 1: clear the tray completely (no dice, no hands).", interactive)
    skip = LIVE_SKIP if live else 0
    empty = _grab(camera, "the empty tray", skip)
    leftovers = DiceReader().read(empty)
    cal.set_empty_tray(empty)
    cal.tray = _tray(empty, tray_spec, say)
    # With the empty tray to compare against and the dice set apart, the hand-built finder
    # outlines each die exactly: that measures the die's side and samples its body colour.
    outline = ClassicReader(cal)
    reader = DiceReader(Calibration(tray=cal.tray))
    sure = [d for d in leftovers if d.value is not None]
    if sure:
        say(
            f"warning: the empty tray seems to hold {len(sure)} dice; "
            "clear it and run calibrate again if that is right."
        )
    samples: dict[str, list[np.ndarray]] = {}
    counted = 0  # the dice shown, all families: what each roll holds
    sizes: list[float] = []
    seen: list[float] = []
    for i, family in enumerate(families, start=2):
        _ask(f"Step {i}: put the {family} dice on the tray, apart from each other.", interactive)
        frame = _grab(camera, f"the {family} dice", skip)
        dice = outline.read(frame)
        if not dice:
            raise CalibrationError(
                f"no dice found for {family}: check that the dice are in view, in focus and "
                "lit, and that the mat contrasts with them"
                + (" (and inside the tray: --tray)" if cal.tray else "")
            )
        samples[family] = [die_colour(frame, d.rect) for d in dice]
        counted += len(dice)
        sizes += [float(np.sqrt(d.rect[1][0] * d.rect[1][1])) for d in dice]
        seen += [float(d.rect[1][0]) for d in reader.read(frame)]
        say(f"  {family}: {len(dice)} dice seen")
    if sizes:
        _check_die_size(sizes, seen, say)
        cal.die_px = round(float(np.median(sizes)), 1)
    cal.palette = calibrate_palette(samples)
    cal.camera = dict(getattr(camera, "controls", {}) or {})
    if rolls:
        _adapt(cal, camera, rolls, interactive, live, say, len(families) + 2, counted)
    return cal


def cmd_calibrate(args: argparse.Namespace) -> int:
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    interactive = sys.stdin.isatty() and not args.yes
    try:
        camera = open_camera(args.camera)
    except CameraError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    live = not Path(args.camera).is_dir()
    print(f"Calibrating with {camera.name} for families: {', '.join(families)}")
    try:
        cal = calibrate(
            camera,
            families,
            interactive,
            live=live,
            tray_spec=args.tray,
            rolls=args.rolls,
        )
    except (CameraError, CalibrationError, tray.TrayError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        camera.close()
    out = Path(args.out)
    cal.save(out)
    print(
        f"Die size {cal.die_px} px; colours: "
        + ", ".join(f"{k} Lab{tuple(round(x) for x in v)}" for k, v in cal.palette.items())
    )
    if cal.tray is not None:
        picture = out.with_name(out.stem + "-tray.png")
        empty = cv2.imread(str(out.parent / cal.empty_tray)) if cal.empty_tray else None
        if empty is not None:
            cv2.imwrite(str(picture), tray.draw(empty, cal.tray))
            print(
                f"Only the tray is read: check its outline in {picture} (else calibrate "
                "again with --tray 'x,y x,y ...', its corners in pixels of that picture)"
            )
    print(f"Saved {args.out}. Use it with --calibration {args.out}")
    return 0


def cmd_adapt(args: argparse.Namespace) -> int:
    """Adapt the face classifier to a rig from photos of it (kept in its calibration)."""
    path = Path(args.calibration)
    cal = Calibration.load(path) if path.exists() else Calibration()
    photos = []
    for name in args.photos:
        image = cv2.imread(name)
        if image is None:
            print(f"error: cannot read {name} as an image", file=sys.stderr)
            return 2
        photos.append(image)
    try:
        found = adapt_calibration(
            cal, photos, dice=None if args.dice is None else [args.dice] * len(photos)
        )
    except AdaptError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    cal.save(path)
    heat = f"; {_thresholds(cal)}" if cal.min_heat else ""
    print(
        f"Adapted the face classifier to this rig from {found} dice on {len(photos)} photos"
        f"{heat}; saved {path} (and {cal.faces}). Use it with --calibration {path}"
    )
    return 0


def _dice_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a count of dice is a whole number from 1, not {text!r}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m vision", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("read", help="read the dice on pictures")
    r.add_argument("images", nargs="+")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.add_argument("--draw", metavar="DIR", help="write annotated pictures here")
    r.add_argument("--calibration", metavar="FILE", type=Path)
    r.add_argument(
        "--count",
        metavar="N",
        type=_dice_count,
        help="how many dice are in view: finding fewer, look harder for the rest "
        "(as the companion's camera does while the table waits for a roll of N dice)",
    )
    r.set_defaults(run=cmd_read)
    e = sub.add_parser("evaluate", help="score the reader on labelled photos")
    e.add_argument("dir", help="folder with images and labels.json")
    e.add_argument("--json", action="store_true")
    e.add_argument(
        "--mistakes",
        metavar="FILE.png",
        type=Path,
        help="draw every die read wrong, unsure or missed, and every phantom, "
        "with its label and read, into one picture",
    )
    e.add_argument("--calibration", metavar="FILE", type=Path)
    e.set_defaults(run=cmd_evaluate)
    lab = sub.add_parser(
        "label",
        help="draft labels.json for a folder of photos, to check "
        "by hand and then evaluate or retrain on",
    )
    lab.add_argument("dir", help="folder of photos")
    lab.add_argument("--force", action="store_true", help="replace an existing labels.json")
    lab.add_argument("--calibration", metavar="FILE", type=Path)
    lab.set_defaults(run=cmd_label)
    c = sub.add_parser("calibrate", help="guided setup for a rig")
    c.add_argument(
        "--camera",
        required=True,
        help="'picam', a VideoCapture device number, or a folder of images "
        "(empty tray first, then one picture per family, then the rolls)",
    )
    c.add_argument(
        "--families",
        default="red",
        help="comma-separated family colours, in the order they will be shown",
    )
    c.add_argument("--out", default=str(default_path()), help="calibration file to write")
    c.add_argument("--yes", action="store_true", help="do not wait for Enter between steps")
    c.add_argument(
        "--tray",
        default="auto",
        help="where dice count: 'auto' (found on the empty tray), 'none' (the whole "
        "picture), or its corners 'x,y x,y x,y ...' (or 'x0,y0,x1,y1') in "
        "pixels of the camera's picture",
    )
    c.add_argument(
        "--rolls",
        type=int,
        default=ROLLS,
        help=f"photos of rolls to adapt the face classifier to the rig from (default {ROLLS}; "
        "0: not adapted). A folder camera gives them after the families' pictures",
    )
    c.set_defaults(run=cmd_calibrate)
    a = sub.add_parser(
        "adapt",
        help="adapt the face classifier to a rig from photos of its rolls (no labels needed)",
    )
    a.add_argument("photos", nargs="+", help="photos of the rig with dice on it (about ten)")
    a.add_argument(
        "--calibration",
        default=str(default_path()),
        help="the rig's calibration: the adapted classifier is kept in it (made if missing)",
    )
    a.add_argument(
        "--dice",
        type=int,
        metavar="N",
        help="how many dice each photo holds: the detector's threshold and how sure the "
        "classifier must be that a find is no die are then chosen for the rig too (the pair "
        "at which the reader finds most nearly N on each)",
    )
    a.set_defaults(run=cmd_adapt)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except CalibrationError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

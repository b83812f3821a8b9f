"""The command line, scoring and calibration, run for real on drawn and real pictures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.baseline import read_baseline
from vision.calibration import Calibration, CalibrationError
from vision.cameras import CameraError
from vision.cli import LIVE_SKIP, _check_die_size, _grab_roll, calibrate, main
from vision.colour import NAMED_COLOURS, check_families, group_by_colour
from vision.draw import TILE
from vision.evaluation import match, wilson
from vision.net import MIN_HEAT
from vision.tray import contains


def write_tray(synth, path: Path, dice: list[tuple[tuple[int, int], int, tuple]]) -> Path:
    img = synth.mat()
    for centre, value, body in dice:
        synth.draw_die(img, centre, value, body=body)
    cv2.imwrite(str(path), synth.blur(img))
    return path


def red_family_shots(synth, tmp_path: Path) -> Path:
    """A folder camera's first pictures for calibrate: the empty tray, then two red dice."""
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "0-empty.png"), synth.blur(synth.mat()))
    red = (40, 40, 200)
    write_tray(synth, shots / "1-red.png", [((80, 80), 2, red), ((200, 200), 5, red)])
    return shots


def test_read_prints_json_with_value_box_colour_confidence(
    dataset, labels, tmp_path, capsys
) -> None:
    name = "IMG_20191209_095545.jpg"
    pic = tmp_path / name
    shutil.copy(dataset / name, pic)
    assert main(["read", str(pic), "--json", "--draw", str(tmp_path / "out")]) == 0
    out = json.loads(capsys.readouterr().out)[str(pic)]
    assert sorted(d["value"] for d in out) == sorted(d["value"] for d in labels[name])
    taken, phantoms = match(
        [((d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2) for d in out],
        [d["box"] for d in labels[name]],
    )
    assert len(taken) == len(out) and not phantoms
    for die in out:
        assert die["colour"] in NAMED_COLOURS
        assert 0 <= die["confidence"] <= 1
    assert (tmp_path / "out" / (pic.stem + ".png")).exists()


def test_read_told_how_many_dice_are_in_view_looks_harder(photos, capsys) -> None:
    """``read --count N``: what the companion's camera does while the table waits for a roll
    of N dice; a count that is no count is refused with the reason."""
    pic = photos / "box-gray" / "00098_jpg-0c02265863461e1ef282730aeb28a768.jpg"
    assert main(["read", str(pic)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(": 3 dice: 4 6 5")
    assert main(["read", str(pic), "--count", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(": 4 dice: 1 4 6 5")
    for bad in ("0", "four"):
        with pytest.raises(SystemExit):
            main(["read", str(pic), "--count", bad])
        assert "a count of dice is a whole number from 1" in capsys.readouterr().err


def test_read_says_clearly_when_a_file_is_not_a_picture(tmp_path, capsys) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    assert main(["read", str(bad)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_evaluate_on_real_photos_gives_the_agreed_json_keys(
    dataset, labels, tmp_path, capsys
) -> None:
    names = ["IMG_20191209_095431.jpg", "IMG_20191208_111228.jpg"]
    for n in names:
        shutil.copy(dataset / n, tmp_path / n)
    (tmp_path / "labels.json").write_text(json.dumps({n: labels[n] for n in names}))
    assert main(["evaluate", str(tmp_path), "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    for key in ("value_accuracy", "missed", "phantom", "exact_images", "abstained", "ms_per_image"):
        assert key in out
    labelled = sum(len(labels[n]) for n in names)
    assert out["labelled"] == labelled
    counts = out["confusion"]["counts"]
    assert sum(map(sum, counts)) == labelled  # every labelled die lands in one column
    assert out["right"] == sum(counts[v - 1][v] for v in range(1, 7))
    assert "2/2" in captured.err  # the progress bar


def test_evaluate_draws_each_mistake_with_its_label_and_read(
    dataset, labels, tmp_path, capsys
) -> None:
    # A photo the reader gets exactly right (see the read test above), with one label made
    # wrong and one taken away: one "wrong" read and one phantom to look at, nothing else.
    name = "IMG_20191209_095545.jpg"
    shutil.copy(dataset / name, tmp_path / name)
    dice = [dict(d) for d in labels[name]]
    changed = dice[0]["value"]
    dice[0]["value"] = changed % 6 + 1
    gone = dice.pop(1)
    (tmp_path / "labels.json").write_text(json.dumps({name: dice}))
    sheet = tmp_path / "mistakes.png"
    assert main(["evaluate", str(tmp_path), "--json", "--mistakes", str(sheet)]) == 0
    captured = capsys.readouterr()
    mistakes = json.loads(captured.out)["mistakes"]
    assert sorted(m["kind"] for m in mistakes) == ["phantom", "wrong"]
    wrong = next(m for m in mistakes if m["kind"] == "wrong")
    assert (wrong["box"], wrong["true"], wrong["read"]) == (
        dice[0]["box"],
        changed % 6 + 1,
        changed,
    )
    phantom = next(m for m in mistakes if m["kind"] == "phantom")
    taken, _ = match(
        [
            (
                (phantom["box"][0] + phantom["box"][2]) / 2,
                (phantom["box"][1] + phantom["box"][3]) / 2,
            )
        ],
        [gone["box"]],
    )
    assert taken == {0: 0} and phantom["read"] == gone["value"]
    picture = cv2.imread(str(sheet))
    assert picture.shape == (TILE + 32, 10 * (TILE + 2), 3)  # one row of two tiles
    assert "2 dice to look at (1 wrong, 0 unsure, 0 missed, 1 phantom)" in captured.err


def test_evaluate_with_nothing_wrong_says_so_and_draws_nothing(
    dataset, labels, tmp_path, capsys
) -> None:
    name = "IMG_20191209_095545.jpg"
    shutil.copy(dataset / name, tmp_path / name)
    (tmp_path / "labels.json").write_text(json.dumps({name: labels[name]}))
    sheet = tmp_path / "mistakes.png"
    assert main(["evaluate", str(tmp_path), "--mistakes", str(sheet)]) == 0
    assert "no mistakes to draw" in capsys.readouterr().err
    assert not sheet.exists()


def test_label_drafts_labels_json_from_what_it_reads(
    dataset, labels, synth, tmp_path, capsys
) -> None:
    # A photo it reads exactly right, and a drawn tray with a smudged die it must be unsure
    # of (a 1 with two more spots in an L: no legal face).
    name = "IMG_20191209_095545.jpg"
    shutil.copy(dataset / name, tmp_path / name)
    img = synth.mat()
    synth.draw_die(img, (160, 160), 1, body=(40, 40, 200))
    cv2.circle(img, (170, 160), 3, (255, 255, 255), -1)
    cv2.circle(img, (160, 150), 3, (255, 255, 255), -1)
    synth.draw_die(img, (80, 80), 6, angle=20)
    cv2.imwrite(str(tmp_path / "tray.png"), synth.blur(img))
    assert main(["label", str(tmp_path)]) == 0
    assert 'Unsure of 1: their "value" is null' in capsys.readouterr().out
    draft = json.loads((tmp_path / "labels.json").read_text())
    assert sorted(draft) == [name, "tray.png"]
    taken, extra = match(
        [((d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2) for d in draft[name]],
        [d["box"] for d in labels[name]],
    )
    assert not extra and len(taken) == len(labels[name])
    assert all(draft[name][p]["value"] == labels[name][i]["value"] for i, p in taken.items())
    assert sorted(d["value"] or 0 for d in draft["tray.png"]) == [0, 6]
    # Until the unsure die is filled in, evaluate says which label is incomplete.
    assert main(["evaluate", str(tmp_path)]) == 2
    assert "tray.png" in capsys.readouterr().err
    # Checked labels are never overwritten by accident.
    assert main(["label", str(tmp_path)]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["label", str(tmp_path), "--force"]) == 0
    # A folder with no pictures, or no folder at all, is a clear error.
    assert main(["label", str(tmp_path / "labels.json")]) == 2
    assert "not a folder of images" in capsys.readouterr().err


def test_wilson_interval_and_matching() -> None:
    lo, hi = wilson(99, 100)
    assert 0.94 < lo < 0.99 < hi <= 1.0
    taken, phantoms = match([(5, 5), (50, 50), (6, 6)], [[0, 0, 10, 10]])
    assert taken == {0: 0} and phantoms == [1, 2]


def test_baseline_reads_a_plain_white_die(synth) -> None:
    img = synth.mat(grey=90)
    synth.draw_die(img, (150, 150), 4, side=34, body=(240, 240, 240), pip=(10, 10, 10))
    dice = read_baseline(synth.blur(img), die_px=34)
    assert [d.value for d in dice] == [4]


def test_calibrate_from_a_folder_learns_size_colours_and_empty_tray(
    synth, tmp_path, capsys
) -> None:
    shots = red_family_shots(synth, tmp_path)
    write_tray(synth, shots / "2-blue.png", [((90, 200), 3, (200, 80, 30))])
    out = tmp_path / "cal.json"
    assert (
        main(
            [
                "calibrate",
                "--camera",
                str(shots),
                "--families",
                "red,blue",
                "--out",
                str(out),
                "--yes",
            ]
        )
        == 0
    )
    cal = Calibration.load(out)
    assert 30 <= cal.die_px <= 42
    assert set(cal.palette) == {"red", "blue"}
    assert cal.empty_lab((320, 320, 3)) is not None
    # A plain mat is tray all over; the picture to check it by eye is written beside.
    assert cal.tray is not None and (tmp_path / "cal-tray.png").exists()
    assert all(contains(cal.tray, (320, 320), p) for p in [(10, 10), (310, 310), (160, 160)])
    # The learnt palette names the families' dice.
    pic = write_tray(synth, tmp_path / "roll.png", [((160, 160), 6, (200, 80, 30))])
    capsys.readouterr()
    assert main(["read", str(pic), "--json", "--calibration", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)[str(pic)][0]["colour"] == "blue"


def test_calibrate_adapts_the_classifier_to_the_rolls_after_the_families(
    synth, tmp_path, capsys
) -> None:
    shots = red_family_shots(synth, tmp_path)
    red = (40, 40, 200)
    places = [(60, 60), (160, 60), (260, 60), (60, 200), (160, 200), (260, 200)]
    # The family's six dice shown apart, then rolled.
    write_tray(synth, shots / "1-red.png", [(at, i + 1, red) for i, at in enumerate(places)])
    for roll in range(6):
        write_tray(
            synth,
            shots / f"2-roll{roll}.png",
            [(at, (roll + i) % 6 + 1, red) for i, at in enumerate(places)],
        )
    out = tmp_path / "cal.json"
    argv = ["calibrate", "--camera", str(shots), "--out", str(out), "--yes", "--rolls", "10"]
    assert main(argv) == 0
    said = capsys.readouterr().out
    # The folder held 6 rolls of the 10 asked for: the classifier adapted from those.
    assert "Step 3, roll 7 of 10" in said and "from 36 dice on 6 rolls" in said
    cal = Calibration.load(out)
    assert cal.faces == "cal-faces.onnx" and (tmp_path / "cal-faces.onnx").exists()
    # Each roll held the six dice shown, and the default threshold finds them all: kept.
    assert cal.min_heat == MIN_HEAT
    pic = shots / "2-roll0.png"
    assert main(["read", str(pic), "--json", "--calibration", str(out)]) == 0
    assert [d["value"] for d in json.loads(capsys.readouterr().out)[str(pic)]] == [1, 2, 3, 4, 5, 6]
    # --rolls 0: no rolls asked for, nothing adapted.
    assert main([*argv[:-1], "0"]) == 0
    assert "roll" not in capsys.readouterr().out
    assert Calibration.load(out).faces is None


class _Frames:
    """A live camera's frames, in order (None once they run out)."""

    def __init__(self, frames: list) -> None:
        self.frames = list(frames)
        self.name = "fake"

    def read(self):  # type: ignore[no-untyped-def]
        return self.frames.pop(0) if self.frames else None

    def close(self) -> None:
        pass


def test_a_live_camera_takes_a_roll_when_its_dice_stop(synth, monkeypatch) -> None:
    red = (40, 40, 200)

    def tray(at: tuple[int, int], value: int):  # type: ignore[no-untyped-def]
        img = synth.mat()
        synth.draw_die(img, at, value, body=red)
        return synth.blur(img)

    last, new = tray((80, 80), 2), tray((220, 200), 5)
    rolling = [tray((100 + 30 * i, 120 + 20 * i), 1 + i) for i in range(3)]
    # The last roll still lies there, then the dice tumble, then they stop: the picture is
    # of the new roll, once it has been still for a few frames.
    camera = _Frames([last, last, last, last, *rolling, new, new, new, new, new])
    taken = _grab_roll(camera, "roll 1")
    assert np.array_equal(taken, new) and len(camera.frames) == 1
    # Nothing moves: no roll is taken, however long it stays still.
    monkeypatch.setattr("vision.cli.ROLL_WAIT_FRAMES", 20)
    with pytest.raises(CameraError, match="no roll seen"):
        _grab_roll(_Frames([last] * 40), "roll 2")


def test_calibrate_with_a_live_camera_takes_the_rolls_as_they_settle(synth) -> None:
    red = (40, 40, 200)

    def tray(dice: list) -> np.ndarray:  # type: ignore[type-arg]
        img = synth.mat()
        for at, value in dice:
            synth.draw_die(img, at, value, body=red)
        return synth.blur(img)

    places = [(60, 60), (160, 60), (260, 60), (60, 200), (160, 200), (260, 200)]
    rolls = [tray([(at, (r + i) % 6 + 1) for i, at in enumerate(places)]) for r in range(6)]
    frames = [tray([])] * (LIVE_SKIP + 1) + [tray([((80, 80), 2), ((200, 200), 5)])] * (
        LIVE_SKIP + 1
    )
    for roll in rolls:  # each roll: the dice tumble, then lie still
        frames += [tray([((90 + 40 * i, 150), 3)]) for i in range(3)] + [roll] * 4
    said: list[str] = []
    cal = calibrate(_Frames(frames), ["red"], False, live=True, say=said.append, rolls=8)
    # Six rolls were made before the camera ran out of frames: taken as they settled.
    assert [s for s in said if "taken" in s] == [f"  roll {i} of 8: taken" for i in range(1, 7)]
    assert "from 36 dice on 6 rolls" in said[-1] and cal.faces_from is not None


def test_calibrate_takes_the_tray_drawn_by_hand(synth, tmp_path, capsys) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "0-empty.png"), synth.blur(synth.mat()))
    write_tray(
        synth, shots / "1-red.png", [((80, 80), 2, (40, 40, 200)), ((250, 250), 5, (40, 40, 200))]
    )
    out = tmp_path / "cal.json"
    assert (
        main(
            [
                "calibrate",
                "--camera",
                str(shots),
                "--families",
                "red",
                "--out",
                str(out),
                "--yes",
                "--tray",
                "0,0 160,0 160,160 0,160",
            ]
        )
        == 0
    )
    cal = Calibration.load(out)
    assert cal.tray == [[0, 0], [0.5, 0], [0.5, 0.5], [0, 0.5]]
    # The die outside the tray was neither measured nor will it be read.
    pic = write_tray(
        synth, tmp_path / "roll.png", [((80, 80), 3, (40, 40, 200)), ((250, 250), 6, (40, 40, 200))]
    )
    capsys.readouterr()
    assert main(["read", str(pic), "--json", "--calibration", str(out)]) == 0
    assert [d["value"] for d in json.loads(capsys.readouterr().out)[str(pic)]] == [3]
    assert (
        main(
            [
                "calibrate",
                "--camera",
                str(shots),
                "--families",
                "red",
                "--out",
                str(out),
                "--yes",
                "--tray",
                "0,0 10",
            ]
        )
        == 2
    )
    assert "pairs" in capsys.readouterr().err


def test_calibrate_says_what_the_die_size_means(capsys) -> None:
    said: list[str] = []
    with pytest.raises(CalibrationError, match="at least 12"):
        _check_die_size([9.0, 9.5], [9.0], said.append)
    _check_die_size([18.0, 19.0], [18.5], said.append)
    assert "32 or more reads them better" in said[-1]
    n = len(said)
    _check_die_size([28.0, 29.0], [28.5], said.append)  # under 32 px: held out, read 43% right
    assert len(said) == n + 1 and "28 px across" in said[-1]
    _check_die_size([40.0, 41.0], [25.0], said.append)
    assert "the reader sees them 25 px" in said[-1]
    n = len(said)
    _check_die_size([40.0, 41.0], [38.0, 42.0], said.append)
    assert len(said) == n  # a good size, measured alike both ways: nothing to say


def test_calibrate_explains_a_missing_camera_and_an_empty_family(synth, tmp_path, capsys) -> None:
    assert main(["calibrate", "--camera", str(tmp_path / "nowhere"), "--yes"]) == 2
    assert "not 'picam', a device number" in capsys.readouterr().err
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "0.png"), synth.blur(synth.mat()))
    cv2.imwrite(str(shots / "1.png"), synth.blur(synth.mat(seed=2)))
    assert (
        main(
            [
                "calibrate",
                "--camera",
                str(shots),
                "--families",
                "red",
                "--yes",
                "--out",
                str(tmp_path / "c.json"),
            ]
        )
        == 2
    )
    assert "no dice found for red" in capsys.readouterr().err


def test_calibration_file_errors_say_what_to_do(tmp_path) -> None:
    with pytest.raises(CalibrationError, match="calibrate"):
        Calibration.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text('{"die_px": -3}')
    with pytest.raises(CalibrationError, match="die_px"):
        Calibration.load(tmp_path / "bad.json")


def test_colour_groups_and_the_game_count() -> None:
    reds = [[120, 180, 160]] * 3
    blues = [[80, 145, 80]] * 5
    groups = group_by_colour([*reds, *blues], k=2)
    assert len(set(groups[:3])) == 1 and len(set(groups[3:])) == 1 and groups[0] != groups[3]
    assert check_families(["red"] * 3 + ["blue"] * 5) == []
    assert check_families(["red"] * 4 + ["blue"] * 5) == ["4 red dice seen, the game has 3"]

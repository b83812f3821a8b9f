"""The pages' JavaScript: ES modules served as they are (no build step), checked here.

Every module parses as an ES module (``node --check``), ESLint finds nothing (jslint/: the
recommended rules, no unused or undefined names, browser globals), every import names a
module that exists and exports what is imported, every module is reachable from the entry,
and every page the templates declare is one the entry starts. And the generic view, which
shows a game without views of its own, plays High Die (tests/helpers) in Chromium.

Node.js and ESLint are needed for the first two: without them those tests skip, and fail
instead when ``CI=true`` (``.ci/run`` installs ESLint from jslint/package-lock.json).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from high_die import HIGH_DIE

from companion import games

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
TEMPLATES = ROOT / "web" / "templates"
JSLINT = ROOT / "jslint"
ESLINT = JSLINT / "node_modules" / ".bin" / "eslint"
ENTRY = STATIC / "js" / "main.js"

# import ... from "x"; import "x"; export ... from "x" (the names may span lines)
STATIC_IMPORT = re.compile(
    r"^\s*(?:import|export)\s+(?:(?P<names>[\w*{}\s,$]+?)\s+from\s+)?[\"'](?P<spec>[^\"']+)[\"']",
    re.M,
)
DYNAMIC_IMPORT = re.compile(r"\bimport\(\s*[\"'](?P<spec>[^\"']+)[\"']\s*\)")
EXPORTED_DECLARATION = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([\w$]+)", re.M
)
EXPORTED_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.M)


def modules() -> list[Path]:
    return sorted(STATIC.rglob("*.js"))


def needs(tool: str, path: str | None, how: str) -> str:
    """The tool's path, or skip saying how to get it; in CI a missing tool is a failure."""
    if path:
        return path
    message = f"{tool} is missing: {how}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: .ci/run installs it)")
    pytest.skip(message)
    raise AssertionError  # unreachable


def node() -> str:
    return needs("node", shutil.which("node"), "install Node.js (Debian: apt install nodejs)")


def eslint() -> str:
    return needs(
        "ESLint",
        str(ESLINT) if ESLINT.exists() else None,
        "run `npm ci --prefix jslint` (Node.js and npm needed)",
    )


def imports(module: Path) -> list[tuple[str, list[str] | None]]:
    """Each import of ``module``: the specifier, and the names it imports (None: the module
    as a whole, from ``import("...")``, ``import "..."`` or ``import * as``)."""
    text = module.read_text()
    out: list[tuple[str, list[str] | None]] = []
    for m in STATIC_IMPORT.finditer(text):
        names = m["names"]
        if names is None or "*" in names:
            out.append((m["spec"], None))
            continue
        braced = re.search(r"\{([^}]*)\}", names)
        listed = braced[1].split(",") if braced else []
        wanted = [n.split(" as ")[0].strip() for n in listed if n.strip()]
        if not names.strip().startswith("{"):
            wanted.append("default")
        out.append((m["spec"], wanted))
    out.extend((m["spec"], None) for m in DYNAMIC_IMPORT.finditer(text))
    return out


def exports(module: Path) -> set[str]:
    text = module.read_text()
    names = set(EXPORTED_DECLARATION.findall(text))
    for listed in EXPORTED_LIST.findall(text):
        names |= {n.split(" as ")[-1].strip() for n in listed.split(",") if n.strip()}
    if re.search(r"^export\s+default\b", text, re.M):
        names.add("default")
    return names


def resolve(module: Path, spec: str) -> Path:
    assert spec.startswith(("./", "../")), (
        f"{module.relative_to(ROOT)} imports {spec!r}: only relative paths to /static modules "
        "(no bare names: there is no bundler)"
    )
    return (module.parent / spec).resolve()


def parse_as_module(exe: str, source: str) -> subprocess.CompletedProcess[str]:
    """``node --check`` on a ``.js`` file parses it as CommonJS; given on stdin with
    ``--input-type=module`` it is parsed as what the browser loads, an ES module."""
    return subprocess.run(
        [exe, "--check", "--input-type=module"],
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_every_module_parses_as_an_es_module() -> None:
    exe = node()
    bad = []
    for module in modules():
        done = parse_as_module(exe, module.read_text())
        if done.returncode != 0:
            bad.append(f"{module.relative_to(ROOT)}:\n{done.stderr.strip()}")
    assert not bad, "\n\n".join(bad)


def test_the_node_check_really_parses_module_syntax() -> None:
    """The check above fails on a broken module (a check that passes everything is none)."""
    done = parse_as_module(node(), 'import { h } from "./dom.js";\nexport const x = h(;\n')
    assert done.returncode != 0 and "SyntaxError" in done.stderr


def test_eslint_finds_nothing() -> None:
    exe = eslint()
    done = subprocess.run(
        [
            exe,
            "--config",
            str(JSLINT / "eslint.config.js"),
            "--max-warnings",
            "0",
            "--format",
            "json",
            "web/static",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.stdout, done.stderr
    results = json.loads(done.stdout)
    linted = {Path(r["filePath"]).resolve() for r in results}
    assert linted == {m.resolve() for m in modules()}, "ESLint did not lint every module"
    problems = [
        f"{Path(r['filePath']).relative_to(ROOT)}:{p.get('line')}: {p['message']}"
        f" ({p.get('ruleId')})"
        for r in results
        for p in r["messages"]
    ]
    assert done.returncode == 0 and not problems, "\n".join(problems) or done.stderr


def test_every_import_names_a_module_that_exports_it() -> None:
    wrong = []
    for module in modules():
        for spec, names in imports(module):
            target = resolve(module, spec)
            where = f"{module.relative_to(ROOT)} imports {spec!r}"
            if not target.is_file() or STATIC not in target.parents:
                wrong.append(f"{where}: no such module under web/static")
                continue
            missing = sorted(set(names or ()) - exports(target))
            if missing:
                wrong.append(f"{where}: it does not export {', '.join(missing)}")
    assert not wrong, "\n".join(wrong)


def test_every_module_is_reachable_from_the_entry() -> None:
    """A module nothing imports is dead code."""
    seen: set[Path] = set()
    todo = [ENTRY.resolve()]
    while todo:
        module = todo.pop()
        if module in seen or not module.is_file():  # a missing one: the test above
            continue
        seen.add(module)
        todo.extend(resolve(module, spec) for spec, _ in imports(module))
    orphans = sorted(str(m.relative_to(ROOT)) for m in modules() if m.resolve() not in seen)
    assert not orphans, f"not imported from js/main.js: {orphans}"


def test_page_modules_export_what_the_entry_calls() -> None:
    """A page module has ``start(page)``; a game's words module has ``words``; the generic
    view, which stands in for both, has both."""
    wrong = []
    registry = [STATIC / "js" / "main.js", STATIC / "js" / "games.js"]
    for module in registry:
        for part, spec in re.findall(
            r"([\w\"'-]+):\s*\(\)\s*=>\s*import\(\s*[\"']([^\"']+)[\"']", module.read_text()
        ):
            wanted = "words" if part.strip("\"'") == "words" else "start"
            target = resolve(module, spec)
            if wanted not in exports(target):
                wrong.append(f"{target.relative_to(ROOT)} does not export {wanted}")
    generic = STATIC / "games" / "generic.js"
    assert {"start", "words"} <= exports(generic)
    assert not wrong, "\n".join(wrong)


def own_views() -> dict[str, set[str]]:
    """The games js/games.js lists, each with the parts it has modules for."""
    text = (STATIC / "js" / "games.js").read_text()
    out: dict[str, set[str]] = {}
    for game, body in re.findall(r"\"([\w-]+)\":\s*\{([^}]*)\}", text):
        out[game] = set(re.findall(r"(\w+):\s*\(\)\s*=>\s*import", body))
    return out


def test_a_game_with_pages_of_its_own_has_views_of_its_own_and_the_other_way_round() -> None:
    """A game's own template (web/templates/games/<id>/<page>.html) holds the places its own
    view draws into, and the shared templates those of the generic view: a game has its own
    view for a page exactly when it has its own template for it, and a folder under
    web/static/games/ is a game js/games.js lists."""
    views = own_views()
    assert views, "no game listed in js/games.js"
    templates = {
        d.name: {t.stem for t in d.glob("*.html")} for d in (TEMPLATES / "games").iterdir()
    }
    pages = {game: parts - {"words"} for game, parts in views.items()}
    assert pages == templates
    folders = {d.name for d in (STATIC / "games").iterdir() if d.is_dir()}
    assert folders == set(views)


def test_every_page_in_the_templates_is_one_the_entry_starts() -> None:
    """Each template's ``data-page`` is a page main.js knows (or the message page, which
    runs nothing), and every page loads the entry as a module and nothing else."""
    main = ENTRY.read_text()
    known = set(re.findall(r"^\s*(\w+):\s*\(\)\s*=>\s*import", main, re.M))
    known |= set(re.findall(r"\"(\w+)\"", re.search(r"GAME_PAGES = \[([^\]]*)\]", main)[1]))
    declared = set()
    for template in TEMPLATES.rglob("*.html"):
        declared |= set(re.findall(r'data-page="(\w+)"', template.read_text()))
    assert declared - {"message"} == known
    scripts = [
        (t, s)
        for t in TEMPLATES.rglob("*.html")
        for s in re.findall(r"<script[^>]*>", t.read_text())
    ]
    assert [s for _, s in scripts] == [
        "<script type=\"module\" src=\"{{ url_for('pages.static', filename='js/main.js') }}\">"
    ], scripts


@pytest.fixture
def high_die() -> Iterator[None]:
    games.register(HIGH_DIE)
    yield
    games.unregister(HIGH_DIE.id)


def key_values(page, player: str) -> dict[str, str]:
    """What the generic view shows of one player: its names and values."""
    return page.eval_on_selector(
        f"#players .player[data-player='{player}']",
        "el => Object.fromEntries([...el.querySelectorAll('dt')]"
        ".map(dt => [dt.textContent, dt.nextElementSibling.textContent]))",
    )


def test_the_generic_view_plays_a_game_it_has_no_views_for(server, browser, high_die) -> None:
    """High Die has no views of its own: its pages are the shared templates and the generic
    view. Two phones and the table screen play it to the end in Chromium: each die typed on
    its roller's phone, each call a button of the phone's choices, a move taken back; each
    phone shows its own die and nobody else's; the score is on every page at the end."""
    contexts = []
    errors: list[str] = []

    def page(path: str, **headers: str):
        ctx = browser.new_context(extra_http_headers=headers)
        contexts.append(ctx)
        p = ctx.new_page()
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.set_default_timeout(10_000)
        p.goto(server.url + path)
        return p

    try:
        game = server.create_game(["Ann", "Bo"], game="high-die", options={"rounds": 3})
        phones = {
            name: page(f"/play/{game.id}", **{"X-Player-Token": seat.token})
            for name, seat in game.seats.items()
        }
        table = page(f"/table/{game.id}")

        def settle() -> None:
            seq = str(server.service.game(game.id).seq)
            for p in [*phones.values(), table]:
                p.wait_for_function("s => document.body.dataset.seq === s", arg=seq)

        settle()
        assert table.locator("#players .player[data-player]").count() == 2
        assert table.inner_text("#turn") == "Waiting: Ann to roll; Bo to roll"
        rng = random.Random(4)
        undone = False
        while not server.service.game(game.id).is_over:
            state = server.service.game(game.id).state
            w = rng.choice(HIGH_DIE.waiting_for(state))
            phone = phones[w.player]
            seq = server.service.game(game.id).seq
            if w.dice is not None:
                phone.click(f"#dice-entry .faces button[data-face='{rng.randint(1, 6)}']")
                phone.click("#dice-entry button.send")
            else:
                calls = phone.eval_on_selector_all(
                    "#choices button.choice", "els => els.map(e => e.dataset.group)"
                )
                assert sorted(calls) == ["keep", "reroll"]
                phone.click(f"#choices button.choice[data-group='{rng.choice(calls)}']")
            phone.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
            settle()
            state = server.service.game(game.id).state
            for name, p in phones.items():
                die = state.dice[state.seat(name)]
                assert key_values(p, name)["die"] == ("—" if die is None else str(die))
                for other in set(phones) - {name}:
                    assert "die" not in key_values(p, other), f"{name} sees {other}'s die"
            if not undone and phone.locator("#undo").count():
                phone.click("#undo")
                phone.wait_for_function("s => Number(document.body.dataset.seq) > s + 1", arg=seq)
                settle()
                undone = True
        settle()
        assert undone
        assert "Winner:" in table.inner_text("#over")
        for phone in phones.values():
            assert "Game over" in phone.text_content("#cards")
        end = page(f"/end/{game.id}")
        end.wait_for_selector("#scores table.scores")
        assert "Winner:" in end.inner_text("#scores")
        shots = os.environ.get("WEB_SCREENSHOTS")
        if shots:
            table.screenshot(path=f"{shots}/generic-table.png", full_page=True)
            phones["Ann"].screenshot(path=f"{shots}/generic-phone.png", full_page=True)
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_tap_on_a_newer_picture_is_sent_though_the_last_reply_is_still_on_its_way(
    server, browser, high_die
) -> None:
    """A change's event can reach a phone before the reply to it does (another connection,
    a slow Wi-Fi). Ann's roll is applied and its event shows her the call to make, while the
    reply to her roll is held back: her tap on "keep" is no double tap, and is sent once that
    reply is in (it was dropped: the phone was still "sending")."""
    game = server.create_game(["Ann", "Bo"], game="high-die")
    assert server.act(game, "Bo", {"type": "roll", "player": "Bo", "face": 2}).status == 200
    ctx = browser.new_context(extra_http_headers={"X-Player-Token": game.seats["Ann"].token})
    try:
        phone = ctx.new_page()
        phone.set_default_timeout(10_000)
        held: list[Any] = []
        replies: list[Any] = []

        def hold(route: Any) -> None:
            # Held first: the roll's event can reach the page before route.fetch() returns
            # here (seen in CI as no roll held after its event).
            held.append(route)
            replies.append(route.fetch())  # the server applies it; the page waits

        phone.route("**/dice/roll", hold)
        phone.goto(f"{server.url}/play/{game.id}")
        phone.wait_for_function("s => document.body.dataset.seq === s", arg=str(1))
        phone.click("#dice-entry .faces button[data-face='5']")
        phone.click("#dice-entry button.send")
        phone.wait_for_function("s => document.body.dataset.seq === s", arg=str(2))
        assert len(held) == 1  # the roll's event came; its reply has not
        phone.click("#choices button.choice[data-group='keep']")
        for _ in range(200):  # the companion's reply reaches this handler in its own time
            if replies:
                break
            phone.wait_for_timeout(50)
        held.pop().fulfill(response=replies.pop())
        phone.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=3)
        state = server.service.game(game.id).state
        assert server.service.game(game.id).seq == 3 and state.speaker == 1, state
    finally:
        ctx.close()


def test_create_tapped_before_the_list_of_games_arrives_still_creates_the_game(
    server, browser
) -> None:
    """On a slow Pi the home page's list of games can arrive after the owner has typed the
    names and tapped "Create the game": the tap waits for the list and then creates the game,
    once. (It submitted the bare form: the page reloaded with the names in its address, no
    game made; seen as a browser test timing out under load.) The page's script is loaded
    after the page, so the button comes disabled and the script enables it once it listens:
    a tap before that did the same (seen in CI, where this test clicked too early)."""
    with urllib.request.urlopen(server.url + "/") as res:  # loopback: the owner's page
        html = res.read()
    assert re.search(rb'<button[^>]*type="submit"[^>]*\bdisabled\b', html), html
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        held: list[Any] = []
        page.route("**/api/rules", lambda route: held.append(route))
        made: list[str] = []

        def count(route: Any) -> None:
            made.append(route.request.method)
            route.continue_()

        page.route("**/api/games", count)
        page.goto(server.url + "/")
        for i, name in enumerate(["Ann", "Bo", "Cy"]):
            page.fill(f"input[name=player{i}]", name)
        page.click("button[type=submit]")  # waits until it is enabled: the script listens
        page.dblclick("button[type=submit]", force=True)  # impatient: two more taps
        assert page.eval_on_selector("#game", "s => s.options.length") == 0  # no list yet
        for _ in range(100):  # the route is called back while the page is being driven
            if held:
                break
            page.wait_for_timeout(50)
        assert len(held) == 1 and not server.service.games()
        held.pop().continue_()
        page.wait_for_url("**/host/*")
        game = server.service.game(page.url.rsplit("/", 1)[1])
        assert [s.name for s in game.setup.seats] == ["Ann", "Bo", "Cy"]
        assert "Ann" not in page.url
        page.wait_for_load_state()
        assert made == ["POST"] and len(server.service.games()) == 1, made
    finally:
        ctx.close()

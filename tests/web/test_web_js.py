"""The pages' JavaScript: ES modules served as they are (no build step), checked here.

Every module parses as an ES module (``node --check``), ESLint finds nothing (web/jslint: the
recommended rules, no unused or undefined names, browser globals), every import names a
module that exists and exports what is imported, every module is reachable from the entry,
and every page the templates declare is one the entry starts.

Node.js and ESLint are needed for the first two: without them those tests skip, and fail
instead when ``CI=true`` (``.ci/run`` installs ESLint from web/jslint's lockfile).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
TEMPLATES = ROOT / "web" / "templates"
JSLINT = ROOT / "web" / "jslint"
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
        "run `npm ci --prefix web/jslint` (Node.js and npm needed)",
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

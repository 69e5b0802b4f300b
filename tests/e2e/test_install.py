"""A plain (non-editable) install into a fresh virtual environment finds its content anywhere.

The wheel is built and installed as a user's pip would, without its dependencies: the fresh
environment borrows them from the test's own environment (a path line in a .pth file appends
its site-packages to sys.path, which, unlike a site directory, runs none of its .pth files, so
the editable install of this checkout stays out of sight). Installing textual, sympy, jieba,
pydantic and the rest anew cost ~30 CPU-s of the suite's budget, and what it proved, that the
wheel declares every distribution the tutor imports, is checked here directly: every
third-party module `tutor validate` imports must come from a distribution the wheel requires,
directly or through another.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import venv
from importlib import metadata

import pytest

from tests.helpers import REPO


def required_closure(requirements: list[str]) -> set[str]:
    """Normalised names of the distributions `requirements` need, transitively, extras left out."""
    seen: set[str] = set()
    todo = list(requirements)
    while todo:
        requirement = todo.pop()
        if "extra ==" in requirement.replace('"', "'").replace("extra==", "extra =="):
            continue
        name = normalise(re.split(r"[\s;\[<>=!~(]", requirement.strip(), maxsplit=1)[0])
        if name in seen:
            continue
        seen.add(name)
        try:
            todo += metadata.requires(name) or []
        except metadata.PackageNotFoundError:  # required but absent here: validate would fail anyway
            pass
    return seen


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_wheel_install_validates_from_the_filesystem_root(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(REPO)],
                   check=True, timeout=300)
    (wheel,) = wheels.glob("tutor-*.whl")
    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    # This environment's pip installs into the fresh one (`--python`): no pip of its own to bootstrap.
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                   check=True, timeout=400)
    fresh_site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    (env_dir / fresh_site / "borrowed_dependencies.pth").write_text(ours + "\n")
    clean_env = {key: value for key, value in os.environ.items() if key not in ("TUTOR_CONTENT", "PYTHONPATH")}
    result = subprocess.run([str(env_dir / "bin" / "tutor"), "validate"], cwd="/",
                            env={**clean_env, "PYTHONPROFILEIMPORTTIME": "1"},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok:")
    where = subprocess.run([str(python), "-c", "import tutor.paths as p; print(p.content_root()); print(p.__file__)"],
                           cwd="/", env=clean_env, capture_output=True, text=True, timeout=60)
    content, module = where.stdout.split()
    assert content.startswith(str(env_dir)) and module.startswith(str(env_dir)), where.stdout + where.stderr

    # -X importtime lines: "import time: self [us] | cumulative | <indent>module"
    imported = {line.rsplit("|", 1)[1].strip().split(".")[0] for line in result.stderr.splitlines()
                if line.startswith("import time:") and line.count("|") == 2}
    providers = metadata.packages_distributions()
    third_party = {normalise(dist) for name in imported - set(sys.stdlib_module_names) - {"tutor"}
                   for dist in providers.get(name, [])}
    assert third_party, "no third-party import seen: the import-time log changed"
    requires = metadata.Distribution.at(next((env_dir / fresh_site).glob("tutor-*.dist-info"))).requires or []
    undeclared = third_party - required_closure(requires)
    assert not undeclared, f"imported but not required by the wheel: {sorted(undeclared)}"

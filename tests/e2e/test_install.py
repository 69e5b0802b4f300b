"""A plain (non-editable) install into a fresh virtual environment finds its content anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
import venv

import pytest

from tests.helpers import REPO


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_wheel_install_validates_from_the_filesystem_root(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(REPO)],
                   check=True, timeout=300)
    (wheel,) = wheels.glob("tutor-*.whl")
    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=400)
    clean_env = {key: value for key, value in os.environ.items() if key not in ("TUTOR_CONTENT", "PYTHONPATH")}
    result = subprocess.run([str(env_dir / "bin" / "tutor"), "validate"], cwd="/", env=clean_env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok:")
    where = subprocess.run([str(python), "-c", "from tutor.paths import content_root; print(content_root())"],
                           cwd="/", env=clean_env, capture_output=True, text=True, timeout=60)
    assert where.stdout.strip().startswith(str(env_dir)), where.stdout

"""After `cmake --install`, the module imports from the installed location and
finds the installed executable (validate runs its cases with it)."""

import os
import subprocess
import sys
import textwrap

import pytest

BUILD_DIR = os.environ.get("LBMC_BUILD_DIR")


@pytest.mark.skipif(not BUILD_DIR, reason="LBMC_BUILD_DIR (the build folder) is not set")
def test_the_installed_module_runs_with_the_installed_executable(tmp_path):
    prefix = tmp_path / "prefix"
    done = subprocess.run(["cmake", "--install", BUILD_DIR, "--prefix", str(prefix)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    site = prefix / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "dist-packages"
    script = textwrap.dedent("""
        import lbmc, lbmc._locations
        print(lbmc.__file__)
        print(lbmc._locations.EXECUTABLE)
        rows = lbmc.maxload(n=[16], reps=1e4, seed=1, quiet=True)
        cases = lbmc.validate(quick=True, only="scatter", quiet=True)
        print(len(rows), int(cases["exact_pass"].sum()), int(cases["exact_checks"].sum()))
    """)
    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    module_file, executable, counts = done.stdout.splitlines()
    assert module_file.startswith(str(site))
    assert executable == str(prefix / "bin" / "lbmc")
    rows, passed, checks = map(int, counts.split())
    assert rows == 9 and checks > 0 and passed == checks

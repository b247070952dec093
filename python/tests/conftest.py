"""What the tests share: the command line beside the module, and frames read
from its CSV as pandas reads any CSV (round-trip float parsing)."""

import os
import subprocess

import pandas
import pytest

BINARY = os.environ.get("LBMC_BINARY", "lbmc")
SOURCE_DIR = os.environ.get("LBMC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def run_cli(arguments, cwd=None):
    """The command line's exit code, stdout and stderr for `arguments` (a list)."""
    done = subprocess.run([BINARY, *arguments], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def read_csv(path):
    return pandas.read_csv(path, float_precision="round_trip")


def cli_frame(arguments, tmp_path, name="cli.csv"):
    """The command line's CSV for `arguments`, read by pandas."""
    target = tmp_path / name
    code, _, err = run_cli([*arguments, "--quiet", "--csv", str(target)])
    assert code == 0, err
    return read_csv(target)


@pytest.fixture
def cli():
    return run_cli

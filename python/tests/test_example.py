"""The documented example reproduces a figure of results/plots: its rows are
those of the figure's data, and it draws the figure; the Python and the
commands of the docs run."""

import importlib.util
import os
import subprocess

import pandas

from conftest import SOURCE_DIR, read_csv


def load_example():
    path = os.path.join(SOURCE_DIR, "python", "examples", "maxload_percentile.py")
    spec = importlib.util.spec_from_file_location("maxload_percentile", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_reproduces_the_maxload_figure(tmp_path):
    example = load_example()
    rows = example.percentile_rows()
    committed = read_csv(os.path.join(SOURCE_DIR, "results", "plots", "data", "maxload.csv"))
    pandas.testing.assert_frame_equal(rows, committed, check_exact=True)
    figure = tmp_path / "maxload_percentile.png"
    example.plot(rows, figure)
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def docs_blocks(kind):
    """The code blocks of docs/python.md and README.md fenced as `kind`."""
    blocks = []
    for page in (os.path.join(SOURCE_DIR, "docs", "python.md"), os.path.join(SOURCE_DIR, "README.md")):
        block = None
        for line in open(page, encoding="utf-8"):
            if line.startswith("```"):
                if block is None and line.strip() == "```" + kind:
                    block = []
                elif block is not None:
                    blocks.append("".join(block))
                    block = None
            elif block is not None:
                block.append(line)
    return blocks


def test_the_docs_python_blocks_run(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    blocks = docs_blocks("python")
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block.replace('out="/tmp/results"', f'out="{tmp_path}/results"'), "docs/python.md", "exec"), {})
    assert (tmp_path / "maxload_percentile.png").exists()


def test_the_docs_command_from_the_build_tree_runs():
    build = os.environ.get("LBMC_BUILD_DIR")
    if not build:
        import pytest

        pytest.skip("LBMC_BUILD_DIR (the build folder) is not set")
    lines = [line for block in docs_blocks("sh") for line in block.splitlines()
             if line.startswith("PYTHONPATH=build/release/python python3 -c")]
    assert len(lines) >= 2  # README and docs/python.md
    for line in lines:
        command = line.replace("PYTHONPATH=build/release/python", f"PYTHONPATH={build}/python")
        done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, cwd=SOURCE_DIR,
                              env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
        assert done.returncode == 0, done.stderr
        assert "maxload" in done.stdout and "normal:0,1" in done.stdout

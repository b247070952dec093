"""Every command's function gives the command line's rows: the same columns,
types and doubles as pandas.read_csv of the CSV for the same seed."""

import numpy
import pandas
import pytest

import lbmc
from lbmc import _frames
from conftest import cli_frame, read_csv, run_cli

# (function keyword arguments, the same command line), small and quick.
CASES = {
    "maxload": (dict(dist=["normal:0,1", "poisson:10"], n=[16, 1024], alpha=[0.5, 0.95], reps=1e4, seed=1),
                ["--dist", "normal:0,1", "--dist", "poisson:10", "--n", "16,1024", "--alpha", "0.5,0.95",
                 "--reps", "10000", "--seed", "1"]),
    "maxshift": (dict(dist="exponential:1", n="16:64:*2", reps=2000, seed=2),
                 ["--dist", "exponential:1", "--n", "16:64:*2", "--reps", "2000", "--seed", "2"]),
    "assign": (dict(model=["multinomial", "poisson"], N=1000, P=[10, 100], reps=2000, seed=3),
               ["--model", "multinomial,poisson", "--N", "1000", "--P", "10,100", "--reps", "2000", "--seed", "3"]),
    "scatter": (dict(dist="exponential:1", tasks=[4, 16], procs=8, reps=2000, seed=4),
                ["--dist", "exponential:1", "--tasks", "4,16", "--procs", "8", "--reps", "2000", "--seed", "4"]),
    "rebalance": (dict(n=64, reps=500, seed=5), ["--n", "64", "--reps", "500", "--seed", "5"]),
    "dynamic": (dict(p=4, t1=1000, nu=[1.5, 3], reps=200, seed=6),
                ["--p", "4", "--t1", "1000", "--nu", "1.5,3", "--reps", "200", "--seed", "6"]),
    "compare": (dict(dist="exponential:1", N=64, P=4, reps=200, seed=7),
                ["--dist", "exponential:1", "--N", "64", "--P", "4", "--reps", "200", "--seed", "7"]),
}


def assert_same_frame(ours, theirs):
    pandas.testing.assert_frame_equal(ours, theirs, check_exact=True)


@pytest.mark.parametrize("command", sorted(CASES))
def test_function_gives_the_command_lines_rows(command, tmp_path):
    options, line = CASES[command]
    frame = getattr(lbmc, command)(**options, quiet=True)
    assert_same_frame(frame, cli_frame([command, *line], tmp_path))
    assert frame.attrs["meta"]["seed"] == options["seed"]
    assert frame.attrs["meta"]["experiment"] == command


def test_run_takes_a_command_line(tmp_path):
    _, line = CASES["maxload"]
    assert_same_frame(lbmc.run("maxload", *line, "--quiet"), cli_frame(["maxload", *line], tmp_path))


def test_without_pandas_the_columns_are_numpy_arrays(tmp_path):
    _, line = CASES["maxload"]
    expected = cli_frame(["maxload", *line], tmp_path)
    columns = _frames.columns((tmp_path / "cli.csv").read_text())
    assert list(columns) == list(expected.columns)
    for name, values in columns.items():
        assert values.dtype == expected[name].dtype, name
        numpy.testing.assert_array_equal(values, expected[name].to_numpy())


def test_a_threads_argument_is_honoured_and_does_not_change_the_rows():
    one = lbmc.maxload(n=64, reps=5000, seed=9, threads=1, quiet=True)
    two = lbmc.maxload(n=64, reps=5000, seed=9, threads=2, quiet=True)
    assert one.attrs["meta"]["threads"] == 1 and two.attrs["meta"]["threads"] == 2
    assert_same_frame(one, two)


def test_files_asked_for_are_written_as_well(tmp_path):
    target = tmp_path / "rows.csv"
    frame = lbmc.maxload(n=16, reps=1000, seed=1, csv=str(target), quiet=True)
    assert_same_frame(frame, read_csv(target))


def test_reproduce_returns_its_claims(tmp_path):
    claims = lbmc.reproduce("salmon", quick=True, out=str(tmp_path / "ours"), quiet=True)
    code, _, err = run_cli(["reproduce", "salmon", "--quick", "--quiet", "--out", str(tmp_path / "cli")])
    assert code == 0, err
    assert list(claims.columns[:4]) == ["paper", "claim", "location", "printed"]
    assert_same_frame(claims, read_csv(tmp_path / "cli" / "salmon" / "claims.csv"))


def test_validate_runs_its_cases_with_the_executable():
    cases = lbmc.validate(quick=True, only="scatter", quiet=True)
    assert len(cases) > 0 and (cases["experiment"] == "scatter").all()
    assert (cases["exact_checks"] > 0).all() and (cases["exact_pass"] == cases["exact_checks"]).all()
    assert (cases["status"] == "pass").all()


def test_checkpoint_extend_and_merge(tmp_path):
    state = tmp_path / "run.state"
    lbmc.maxload(n=16, reps=4000, seed=11, checkpoint=str(state), quiet=True)
    extended = lbmc.extend(str(state), reps=8000, quiet=True)
    assert_same_frame(extended, lbmc.maxload(n=16, reps=8000, seed=11, quiet=True))
    slices = []
    for first, count in ((0, 2), (2, 100)):
        part = tmp_path / f"slice{first}.state"
        assert lbmc.maxload(n=16, reps=8000, seed=11, blocks=f"{first}:{count}", checkpoint=str(part),
                            quiet=True) is None
        slices.append(str(part))
    assert_same_frame(lbmc.merge(slices, quiet=True), extended)


def test_help_prints_and_returns_nothing(capfd):
    assert lbmc.run("maxload", "--help") is None
    assert "--dist" in capfd.readouterr().out


def test_every_command_has_a_function_with_the_command_lines_help():
    for name in lbmc.commands():
        code, out, _ = run_cli([name, "--help"])
        assert code == 0
        assert out in getattr(lbmc, name).__doc__, name

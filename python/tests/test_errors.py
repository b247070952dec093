"""Bad input raises lbmc.InputError (a ValueError) with the command line's
one-line message and writes nothing; failures map to Python's classes."""

import shlex
import subprocess
import sys
import textwrap

import pytest

import lbmc
from conftest import run_cli

# One command line per class of bad input the command line refuses (DESIGN §3).
BAD_LINES = [
    "maxload --n 0",                       # n < 1
    "maxload --n 16,,64",                  # malformed list
    "maxload --n 16:4:*2",                 # empty range
    "maxload --dist normal:0,0",           # sigma <= 0
    "maxload --dist binomial:10,1.5",      # p outside [0, 1]
    "maxload --dist poisson:-1",           # negative rate
    "maxload --dist cauchy:0,1",           # unknown law
    "maxload --dist normal",               # malformed spec
    "maxload --reps 1.5",                  # not a whole number
    "maxload --alpha 0.5,1.2",             # level outside (0, 1)
    "maxload --seed 18446744073709551616",  # seed beyond 2^64 - 1
    "maxload --frobnicate",                # unknown option
    "maxload --method fast",               # unknown choice
    "maxload --device cuda --rng pcg64",   # a GPU runs the counter-based stream only
    "maxload --n 4 --reps 1048576 --max-memory 15M",  # a run over the memory allowed
    "scatter --dist empirical:/nonexistent",  # missing input file
    "assign --P 10 --group 3",             # inconsistent options
    "dynamic --lemma1 --isoefficiency --p 4",  # two modes
    "reproduce nosuchpaper",               # unknown paper
    "frobnicate",                          # unknown command
]


@pytest.mark.parametrize("line", BAD_LINES)
def test_bad_input_is_input_error_with_the_command_lines_message(line, tmp_path):
    target = tmp_path / "rows.csv"
    arguments = [*shlex.split(line), "--csv", str(target)]
    code, out, err = run_cli(arguments)
    assert code == 2 and not target.exists()
    with pytest.raises(lbmc.InputError) as raised:
        lbmc.run(*arguments)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) == err.strip()
    assert not target.exists()


def test_keyword_arguments_are_checked_as_the_command_line_checks_them(tmp_path):
    target = tmp_path / "rows.csv"
    cases = [
        (dict(n=0), "maxload --n 0"),
        (dict(dist="normal:0,-1"), "maxload --dist normal:0,-1"),
        (dict(frobnicate=3), "maxload --frobnicate 3"),
        (dict(reps=1.5), "maxload --reps 1.5"),
        (dict(csv="/nonexistent-folder/x.csv"), "maxload --csv /nonexistent-folder/x.csv"),
    ]
    for options, line in cases:
        code, _, err = run_cli(shlex.split(line))
        assert code == 2
        with pytest.raises(lbmc.InputError, match="^" + __import__("re").escape(err.strip()) + "$"):
            lbmc.maxload(**options, **({} if "csv" in options else {"csv": str(target)}))
        assert not target.exists()


def test_a_flag_takes_true_or_false():
    with pytest.raises(lbmc.InputError, match="--quiet is a flag"):
        lbmc.maxload(quiet="yes")


def test_a_full_disk_is_run_error_an_os_error():
    with pytest.raises(lbmc.RunError) as raised:
        lbmc.maxload(n=4, reps=100, quiet=True, csv="/dev/full")
    assert isinstance(raised.value, OSError)
    assert "/dev/full" in str(raised.value)


def test_an_allocation_that_fails_is_memory_error(tmp_path):
    # As the command line's test: memory allowed beyond the address-space
    # limit lets the run start, and its arrays cannot be allocated. In a
    # child, so that the limit binds the child alone.
    target = tmp_path / "rows.csv"
    script = textwrap.dedent(f"""
        import resource, lbmc
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        try:
            lbmc.rebalance(n=2e8, reps=4, threads=2, max_memory="1T", quiet=True, csv={str(target)!r})
        except MemoryError as e:
            print("MemoryError:", e)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MemoryError: lbmc rebalance: failed: out of memory"), done.stdout
    assert not target.exists()


def test_failed_exact_checks_under_strict_raise_check_failure_with_the_rows():
    with pytest.raises(lbmc.CheckFailure) as raised:
        lbmc.maxload(n=16, reps=1000, seed=1, quiet=True, strict=True, z_tol=1e-9)
    assert (raised.value.result["verdict"] == "fail").any()
    assert lbmc.maxload(n=16, reps=1000, seed=1, quiet=True, z_tol=1e-9) is not None

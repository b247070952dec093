"""Ctrl-C, resume, and commands on several Python threads."""

import json
import subprocess
import sys
import textwrap
import threading

import pandas

import lbmc
from conftest import cli_frame

LONG = dict(n=1024, reps=4e6, method="brute", seed=5, threads=2)  # seconds on any machine, at two threads
LONG_LINE = ["maxload", "--n", "1024", "--reps", "4000000", "--method", "brute", "--seed", "5", "--threads", "2"]


def test_sigint_raises_keyboard_interrupt_leaves_no_file_and_resume_gives_the_same_bytes(tmp_path):
    state, target = tmp_path / "run.state", tmp_path / "rows.csv"
    # In a child, so that the signal reaches a process of its own.
    script = textwrap.dedent(f"""
        import json, os, signal, threading, time, lbmc
        sent = []
        def interrupt():
            time.sleep(0.5)
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt).start()
        try:
            lbmc.maxload(**{LONG!r}, checkpoint={str(state)!r}, csv={str(target)!r}, quiet=True)
            print(json.dumps({{"finished": True}}))
        except KeyboardInterrupt:
            print(json.dumps({{"finished": False, "seconds_after_signal": time.monotonic() - sent[0]}}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    print("KeyboardInterrupt", outcome)
    assert outcome["finished"] is False
    assert outcome["seconds_after_signal"] < 10  # stopped at a block boundary, not at the run's end
    assert not target.exists()
    assert state.exists()
    resumed = lbmc.resume(str(state), quiet=True)
    pandas.testing.assert_frame_equal(resumed, cli_frame(LONG_LINE, tmp_path), check_exact=True)


def test_two_threads_run_two_commands_at_once_each_with_its_own_result(tmp_path):
    expected_short = lbmc.maxload(n=16, reps=2000, seed=8, quiet=True)
    results = {}

    def long_run():
        results["long"] = lbmc.maxload(n=1024, reps=1e6, method="brute", seed=12, threads=1, quiet=True)

    worker = threading.Thread(target=long_run)
    worker.start()
    short = [lbmc.maxload(n=16, reps=2000, seed=8, threads=1, quiet=True) for _ in range(3)]
    long_still_running = worker.is_alive()
    worker.join()
    # The GIL is released while a command runs: the short runs ended while
    # the long one, started first, still ran.
    assert long_still_running
    for frame in short:
        pandas.testing.assert_frame_equal(frame, expected_short, check_exact=True)
    line = ["maxload", "--n", "1024", "--reps", "1000000", "--method", "brute", "--seed", "12"]
    pandas.testing.assert_frame_equal(results["long"], cli_frame(line, tmp_path), check_exact=True)

"""Progress: a tqdm bar fed by the engine, the engine's own line without
tqdm, nothing with progress=False."""

import sys

import lbmc
from lbmc import _progress

RUN = dict(n=1024, reps=4e5, method="brute", seed=3, threads=1)  # long enough for several looks


class Recorder:
    def __init__(self):
        self.calls = []
        self.closed = False

    def __call__(self, label, done, planned, run):
        self.calls.append((label, done, planned, run))

    def close(self):
        self.closed = True


def test_the_bar_follows_the_run(monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(_progress, "make_bar", lambda: recorder)
    lbmc.maxload(**RUN, quiet=False)
    assert recorder.closed and len(recorder.calls) >= 2
    labels = {label for label, *_ in recorder.calls}
    assert len(labels) == 1 and "maxload" in labels.pop()
    done = [d for _, d, _, _ in recorder.calls]
    assert done == sorted(done) and done[-1] <= 400000
    assert all(planned == 400000 for _, _, planned, _ in recorder.calls)


def test_a_checkpoint_under_a_bar_keeps_the_command_lines_progress(monkeypatch, tmp_path):
    # The bar replaces the engine's line without a --progress in the run's
    # state, so that `lbmc resume` shows its line as the run would have.
    recorder = Recorder()
    monkeypatch.setattr(_progress, "make_bar", lambda: recorder)
    state = tmp_path / "run.state"
    lbmc.maxload(**RUN, checkpoint=str(state))
    assert recorder.calls
    assert b"--progress" not in state.read_bytes()


def test_progress_false_and_quiet_draw_nothing(monkeypatch, capfd):
    recorder = Recorder()
    monkeypatch.setattr(_progress, "make_bar", lambda: recorder)
    lbmc.maxload(**RUN, progress=False)
    lbmc.maxload(**RUN, quiet=True)
    assert recorder.calls == []
    assert "\r" not in capfd.readouterr().err  # the engine redraws its line with a carriage return


def test_tqdm_draws_a_bar(capsys):
    lbmc.maxload(**RUN, quiet=True, progress=True)  # quiet: no bar
    assert capsys.readouterr().err == ""
    lbmc.maxload(**RUN)
    assert "maxload" in capsys.readouterr().err


def test_without_tqdm_the_engine_draws_its_line(monkeypatch, capfd):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert _progress.make_bar() is None
    lbmc.maxload(**RUN, progress="always")
    err = capfd.readouterr().err
    assert "\r" in err and "reps/s" in err

"""Progress bars: one tqdm bar per run of a command (a parameter point), fed
by the engine's progress while the command runs."""


class _Bars:
    """The on_progress callback of _lbmc.run, drawing with tqdm."""

    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None
        self._run = 0

    def __call__(self, label, done, planned, run):
        if run != self._run:
            self.close()
            self._run = run
            self._bar = self._tqdm(desc=label, total=planned or None, unit="rep", unit_scale=True, leave=False)
        if planned and self._bar.total != planned:
            self._bar.total = planned
        self._bar.update(done - self._bar.n)

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def make_bar():
    """A progress callback drawing tqdm bars, or None when tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return _Bars(tqdm)

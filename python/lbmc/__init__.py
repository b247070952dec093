"""lbmc from Python: every command of the lbmc command line as a function.

    >>> import lbmc
    >>> df = lbmc.maxload(dist="normal:0,1", n=[16, 1024], reps=1e5, seed=1)

Each function takes the command's options as keyword arguments, named as on
the command line (``--target-rse`` is ``target_rse``; a name that is a Python
keyword takes a trailing underscore, ``lambda_``), and its positional
arguments in order (``lbmc.reproduce("salmon")``, ``lbmc.resume(path)``).
A list is one comma-separated list, or repeated options where the option
repeats (several ``dist``); a whole number given as a float (``1e6``) is
written as an integer. The command line checks every value, so an argument is
valid exactly when it is valid there.

A command returns its rows as a pandas DataFrame with the CSV's columns and
types (a dict of NumPy arrays without pandas), the JSON metadata in
``.attrs["meta"]``; ``reproduce`` returns its claims. ``lbmc.run("maxload",
"--n", "16")`` runs any command line. Errors are exceptions: InputError for
bad input (exit 2 on the command line), MemoryError for a run out of memory,
RunError (an OSError) for other failures, CheckFailure for failed exact
checks under ``strict`` and in ``validate`` (exit 1), KeyboardInterrupt for
Ctrl-C, which stops the command within a block (writing its checkpoint, if
asked for one, and no partial output). The engine runs without the GIL.
"""

from ._api import CheckFailure, InputError, RunError, commands, run
from ._api import _define_command_functions

__all__ = ["CheckFailure", "InputError", "RunError", "commands", "run"]
__all__ += _define_command_functions(globals())

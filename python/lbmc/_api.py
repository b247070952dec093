"""Commands, their functions and their outcomes.

The functions are made from the engine's command registry (_lbmc.describe),
so every command of the command line has one and a new command needs no
Python code. A call becomes a command line (_arguments), runs in the engine
(_lbmc.run) and ends as data (_frames) or as the exception of its exit code.
"""

import inspect
import keyword
import numbers

from . import _frames, _lbmc, _progress
from ._locations import EXECUTABLE


class InputError(ValueError):
    """Bad input: what the command line reports with exit code 2."""


class RunError(OSError):
    """A run that failed (I/O, a state file, ...): exit code 3."""


class CheckFailure(Exception):
    """Exact checks failed (exit code 1: validate, or strict=True); the rows are in .result."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


_COMMANDS = {c["name"]: c for c in _lbmc.describe()}


def commands():
    """The names of the commands, in the order `lbmc --help` lists them."""
    return list(_COMMANDS)


def run(command, *arguments, progress=True):
    """Runs `lbmc COMMAND ARGUMENTS...` (strings) and returns what the command's function would."""
    arguments = [str(a) for a in arguments]
    spec = _COMMANDS.get(command)
    if spec is None:  # the command line reports it
        return _run([command, *arguments], None)
    extra, bar = _progress_arguments(spec, "--quiet" in arguments, progress)
    return _run([command, *extra, *arguments], bar)


def _text(value):
    """A single value as the command line reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        if x.is_integer() and abs(x) < 2**63:
            return str(int(x))
        return repr(x)
    return str(value)


def _is_list(value):
    return isinstance(value, (list, tuple, range)) or type(value).__name__ == "ndarray"


def _option_name(key):
    """The command line's name of the keyword `key`: target_rse -> --target-rse, lambda_ -> --lambda."""
    return "--" + key.rstrip("_").replace("_", "-")


def _arguments(spec, positional_values, options):
    """The command line of one call: the command, its options, then its positional arguments."""
    argv = [spec["name"]]
    by_name = {o["name"]: o for o in spec["options"]}
    values = list(positional_values)
    for key, value in options.items():
        name = key.rstrip("_")
        if by_name.get(name, {}).get("positional"):
            values.append(value)
            continue
        if value is None:
            continue
        option = by_name.get(_option_name(key))
        if option is not None and option["flag"]:
            if value is True:
                argv.append(option["name"])
            elif value is not False:
                raise InputError(f"lbmc {spec['name']}: error: {option['name']} is a flag: give True or False")
            continue
        flag = option["name"] if option is not None else _option_name(key)
        if _is_list(value) and option is not None and option["several"]:
            for item in value:
                argv += [flag, _text(item)]
        elif _is_list(value):
            argv += [flag, ",".join(_text(item) for item in value)]
        else:
            argv += [flag, _text(value)]
    for value in values:
        argv += [_text(v) for v in value] if _is_list(value) else [_text(value)]
    return argv


def _progress_arguments(spec, quiet, progress):
    """The engine's --progress for `progress` (put before the command's own
    arguments, which win) and the bar that follows the run (or None)."""
    bar = None
    if quiet:
        mode = None
    elif isinstance(progress, str):
        mode = progress
    elif not progress:
        mode = "never"
    else:
        bar = _progress.make_bar()  # the engine draws no line of its own under a bar
        mode = None
    has_option = any(o["name"] == "--progress" for o in spec["options"])
    return (["--progress", mode] if mode and has_option else []), bar


def _call(name, positional_values, options):
    spec = _COMMANDS[name]
    progress = options.pop("progress", True)
    argv = _arguments(spec, positional_values, options)
    extra, bar = _progress_arguments(spec, bool(options.get("quiet")), progress)
    return _run(argv[:1] + extra + argv[1:], bar)


def _run(argv, bar):
    """Runs the command line `argv`, `bar` (or None) following its progress."""
    try:
        outcome = _lbmc.run(argv, bar, EXECUTABLE)
    finally:
        if bar is not None:
            bar.close()
    return _outcome(outcome)


def _outcome(outcome):
    failure = outcome["failure"]
    message = outcome["message"]
    if failure == "bad_input":
        raise InputError(message)
    if failure == "out_of_memory":
        raise MemoryError(message)
    if failure == "interrupted":
        raise KeyboardInterrupt(message)
    if failure or outcome["code"] not in (0, 1):
        raise RunError(message or f"lbmc: failed with exit code {outcome['code']}")
    results = [_frames.frame(csv, meta) for csv, meta in outcome["tables"]]
    if outcome["claims_csv"]:
        results.append(_frames.frame(outcome["claims_csv"], None))
    result = results[0] if len(results) == 1 else (results or None)
    if outcome["code"] == 1:
        raise CheckFailure("exact checks failed (their rows: .result)", result)
    return result


def _function(spec):
    name = spec["name"]

    def command(*positional_values, **options):
        return _call(name, positional_values, options)

    parameters = []
    for option in sorted(spec["options"], key=lambda o: not o["positional"]):
        python_name = option["name"].lstrip("-").replace("-", "_")
        if keyword.iskeyword(python_name):
            python_name += "_"
        if option["positional"]:
            parameters.append(inspect.Parameter(python_name, inspect.Parameter.POSITIONAL_OR_KEYWORD))
        elif python_name != "progress":
            parameters.append(inspect.Parameter(python_name, inspect.Parameter.KEYWORD_ONLY, default=None))
    parameters.append(inspect.Parameter("progress", inspect.Parameter.KEYWORD_ONLY, default=True))
    command.__name__ = command.__qualname__ = name
    command.__module__ = "lbmc"
    command.__signature__ = inspect.Signature(parameters)
    command.__doc__ = (f"{spec['help']}\nThe options are this function's keyword arguments (--target-rse is "
                       "target_rse), its positional arguments its parameters.\nprogress: True (a tqdm bar where "
                       "tqdm is installed, else the engine's line on a terminal), False, or auto|always|never.\n")
    return command


def _define_command_functions(namespace):
    """Adds one function per command to `namespace`; returns their names."""
    for name, spec in _COMMANDS.items():
        namespace[name] = _function(spec)
    return list(_COMMANDS)

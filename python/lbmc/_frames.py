"""CSV text from the engine as a table: a pandas DataFrame where pandas is
installed, else a dict of NumPy arrays (Columns), or of lists where NumPy is
missing too.

The columns and types are those pandas.read_csv gives the same text: a
column is int64 when every field is an integer, float64 when every field is
a number or empty (empty is NaN), else strings with NaN for empty fields.
Numbers are read by Python's float(), which rounds correctly, so each is the
double the CSV holds (lbmc writes the shortest text that reads back as it).
"""

import csv
import io
import json


class Columns(dict):
    """Columns by name, each a NumPy array (or a list); `attrs` as a DataFrame's."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.attrs = {}


def _values(fields):
    """The fields as integers, else as numbers (empty: NaN), else as strings (empty: NaN); and their kind."""
    try:
        return [int(f) for f in fields], "int64"
    except ValueError:
        pass
    try:
        return [float(f) if f else float("nan") for f in fields], "float64"
    except ValueError:
        pass
    return [f if f else float("nan") for f in fields], "object"


def columns(text):
    """The columns of CSV `text` (a header line, then rows): NumPy arrays, or lists without NumPy."""
    try:
        import numpy
    except ImportError:
        numpy = None
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    table = {}
    for i, name in enumerate(header):
        values, kind = _values([row[i] for row in body])
        table[name] = values if numpy is None else numpy.array(values, dtype=kind)
    return table


def frame(text, meta_json):
    """A DataFrame (or Columns) of CSV `text`, with attrs["meta"] from `meta_json` when given."""
    data = columns(text)
    try:
        import pandas
    except ImportError:
        table = Columns(data)
    else:
        table = pandas.DataFrame(data, copy=False)
    if meta_json is not None:
        table.attrs["meta"] = json.loads(meta_json)
    return table

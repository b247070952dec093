"""The 0.95 percentile of the maximum of n standard normal loads, from
Python: results/plots/maxload_percentile.svg drawn with matplotlib.

    PYTHONPATH=build/release/python python3 python/examples/maxload_percentile.py [OUTPUT.png]

The simulation is the one scripts/plots.sh runs for the figure (same
options, same seed), so its rows are those of results/plots/data/maxload.csv.
"""

import sys


def percentile_rows():
    """Every row of the sweep n = 4, 8, ..., 65536 at the 0.95 percentile."""
    import lbmc

    return lbmc.maxload(dist="normal:0,1", n="4:65536:*2", alpha=0.95, reps=1e5, seed=1, quiet=True,
                        progress=False)


def plot(rows, path):
    """Draws the figure of `rows` into `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    q = rows[rows["statistic"] == "q0.95"]

    def reference(name):
        r = q[q["reference"] == name]
        return r["n"], r["reference_value"]

    mc = q[q["reference"] == "exact"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(*reference("gumbel-paper"), "--", color="#d62728", label="Gumbel, $a_n = b_n = \\sqrt{2 \\ln n}$ (paper)")
    ax.plot(*reference("gumbel-quantile-norming"), ":", color="#ff7f0e", label="Gumbel, quantile norming")
    ax.plot(*reference("exact"), color="#1f77b4", label="exact $F^{-1}(0.95^{1/n})$")
    ax.errorbar(mc["n"], mc["estimate"], yerr=[mc["estimate"] - mc["ci_low"], mc["ci_high"] - mc["estimate"]],
                fmt="o", ms=3, color="black", label="Monte Carlo, 95% interval")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("processors n")
    ax.set_ylabel("0.95 percentile of (Z − μ)/σ")
    ax.set_title("Maximum load of n iid N(0,1) loads: 0.95 percentile")
    ax.legend()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    plot(percentile_rows(), sys.argv[1] if len(sys.argv) > 1 else "maxload_percentile.png")

"""The arena on Ray (``--ray``): the same results as a local run.

Needs the [cluster] extra (Ray), which the test install leaves out: without it this module is
skipped.  CI installs the extra and runs this file in a pytest process of its own (.ci/run).
Ray is only ever started in a child process (``sobedesce arena --ray local``, or a small
script), never in the pytest process, which other tests fork.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from sobedesce.arena import run_arena

if importlib.util.find_spec("ray") is None:
    pytest.skip(
        "Ray is not installed: the arena's --ray tests need the [cluster] extra: pip install -e '.[cluster]'",
        allow_module_level=True,
    )

TIMING = ("decision_ms_median", "decision_ms_p99")


def comparable(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without the fields that measure time (they differ from run to run)."""
    out = {k: v for k, v in summary.items() if k != "elapsed_s"}
    out["bots"] = [{k: v for k, v in row.items() if k not in TIMING} for row in summary["bots"]]
    out["by_name"] = {n: {k: v for k, v in row.items() if k not in TIMING} for n, row in summary["by_name"].items()}
    return out


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def test_ray_local_starts_ray_and_gives_the_same_results(tmp_path: Path) -> None:
    """``sobedesce arena --ray local`` with no Ray running: the arena starts a local Ray itself,
    runs every job as a Ray task (the oracle's seat too) and gives the local run's figures."""
    bots = ["oracle", "basic", "random", "random"]
    arena = [sys.executable, "-m", "sobedesce", "arena", "--bots", ",".join(bots), "--deals", "12", "--seed", "9"]
    done = run([*arena, "--block", "3", "--ray", "local", "--json", "--no-progress", "--save", str(tmp_path)])
    on_ray = json.loads(done.stdout)
    local = run_arena(bots, "classic", 12, seed=9, jobs=1, block=3).summary()
    assert comparable(on_ray) == comparable(local)
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names and all(re.fullmatch(r"rot\d-deal\d{6}\.json", name) for name in names)


def test_an_initialised_ray_is_reused_and_left_running() -> None:
    script = textwrap.dedent(
        """
        import json, ray
        from sobedesce.arena import run_arena

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        summary = run_arena(["random"] * 4, "table", 8, seed=2, block=4, ray="local").summary()
        assert ray.is_initialized(), "the arena shut down a Ray it did not start"
        ray.shutdown()
        print(json.dumps(summary))
        """
    )
    on_ray = json.loads(run([sys.executable, "-c", script]).stdout.splitlines()[-1])
    local = run_arena(["random"] * 4, "table", 8, seed=2, jobs=1, block=4).summary()
    assert comparable(on_ray) == comparable(local)

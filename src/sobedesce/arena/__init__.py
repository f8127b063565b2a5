"""The arena: bots measured against each other on duplicate deals (docs/arena.md).

>>> from sobedesce.arena import run_arena
>>> summary = run_arena(["random"] * 4, deals=2, seed=1, jobs=1).summary()
>>> summary["rounds"], [bot["name"] for bot in summary["bots"]]
(8, ['random', 'random', 'random', 'random'])
"""

from .jobs import (
    BotFailure,
    JobResult,
    JobSpec,
    MatchOutcome,
    bot_rng,
    deal_deck,
    entry_at_seat,
    play_job,
    seat_of_entry,
)
from .runner import (
    DEFAULT_BLOCK,
    ArenaError,
    ArenaInterrupted,
    ArenaResult,
    SaveFailure,
    check_bots,
    plan_jobs,
    run_arena,
)
from .stats import mean_ci, t_quantile

__all__ = [
    "DEFAULT_BLOCK",
    "ArenaError",
    "ArenaInterrupted",
    "ArenaResult",
    "BotFailure",
    "JobResult",
    "JobSpec",
    "MatchOutcome",
    "SaveFailure",
    "bot_rng",
    "check_bots",
    "deal_deck",
    "entry_at_seat",
    "mean_ci",
    "plan_jobs",
    "play_job",
    "run_arena",
    "seat_of_entry",
    "t_quantile",
]

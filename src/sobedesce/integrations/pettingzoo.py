"""Sobe e Desce as a PettingZoo AEC environment (extra ``[rl]``; docs/integrations.md).

>>> env = raw_env(rules="table", episode="round")
>>> env.reset(seed=1)
>>> env.agent_selection in env.possible_agents
True
"""

from __future__ import annotations

import operator
import random
from typing import Any, ClassVar, Literal

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"sobedesce.integrations.pettingzoo needs PettingZoo ({error}): pip install 'sobe-e-desce[rl]'"
    ) from None

from sobedesce.core import Match, find_rules, seat_view

from ._encoding import NUM_ACTIONS, OBS_SIZE, action_from_id, action_name, legal_ids, observe

__all__ = ["env", "raw_env"]

AGENTS = [f"player_{seat}" for seat in range(4)]
Episode = Literal["round", "match"]


def env(
    rules: str = "classic",
    episode: Episode = "round",
    render_mode: str | None = None,
    max_rounds: int = 200,
) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an illegal action ends the episode
    with reward -1 for the offender, out-of-bounds actions are rejected, order is enforced."""
    inner = raw_env(rules=rules, episode=episode, render_mode=render_mode, max_rounds=max_rounds)
    wrapped: Any = wrappers.TerminateIllegalWrapper(inner, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's naming convention
    """Four agents ``player_0``..``player_3`` (seat = the number); one round or a whole match.

    Rewards: minus each seat's score change when a round ends; in ``episode="match"`` also
    each seat's riscos when the match ends (RULES.md §5).  A match is cut (truncated) after
    ``max_rounds`` rounds.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sobe_e_desce_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "classic",
        episode: Episode = "round",
        render_mode: str | None = None,
        max_rounds: int = 200,
    ) -> None:
        super().__init__()
        if episode not in ("round", "match"):
            raise ValueError(f'episode must be "round" or "match", not {episode!r}')
        if render_mode not in (None, "ansi"):
            raise ValueError(f'render_mode must be None or "ansi", not {render_mode!r}')
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int):
            raise TypeError(f"max_rounds must be a whole number, not {max_rounds!r}")
        if max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
        self.rules = find_rules(rules)
        self.episode = episode
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=-5.0, high=5.0, shape=(OBS_SIZE,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self._rng = random.Random()
        self.match = Match(self.rules)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        if agent not in AGENTS:
            raise ValueError(f"not an agent of this game: {agent!r} (the agents are {', '.join(AGENTS)})")
        view = seat_view(self.match, AGENTS.index(agent))
        vector = np.clip(np.asarray(observe(view), dtype=np.float32), -5.0, 5.0)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[legal_ids(view)] = 1
        return {"observation": vector, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.match = Match(self.rules)
        self.match.deal(rng=self._rng, dealer=self._rng.randrange(4))
        self._select()

    def _select(self) -> None:
        seat = self.match.current_seat
        if seat is not None:
            self.agent_selection = AGENTS[seat]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = AGENTS.index(agent)
        current = self.match.round
        assert current is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        try:
            # An integer (numpy's too, as the action space samples), never a float or a bool.
            number = operator.index(action) if not isinstance(action, bool | np.bool_) else None
        except TypeError:
            number = None
        if number is None:
            raise TypeError(f"an action is a whole number 0-{NUM_ACTIONS - 1}, not {action!r}")
        choice = action_from_id(number, current.hands[seat])
        self.match.apply(choice)  # raises IllegalActionError (a ValueError) when illegal
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if current.is_over:
            deltas = current.deltas
            assert deltas is not None
            for s, name in enumerate(AGENTS):
                self.rewards[name] = float(-deltas[s])
            if self.episode == "round":
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.match.is_over:
                riscos = self.match.riscos()
                assert riscos is not None
                for s, name in enumerate(AGENTS):
                    self.rewards[name] += float(riscos[s])
                self.terminations = dict.fromkeys(self.agents, True)
            elif len(self.match.rounds) >= self.max_rounds:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.match.deal(rng=self._rng)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.match)

    def close(self) -> None:
        pass


def render_text(match: Match) -> str:
    """Every seat's hand, trump, the tricks so far and the scores, as text."""
    current = match.round
    lines = [f"round {len(match.rounds)}  scores {' '.join(map(str, match.scores))}  phase {match.phase.label}"]
    if current is not None:
        trump = current.trump.letter if current.trump is not None else "-"
        lines.append(f"dealer {current.dealer}  chooser {current.chooser}  trump {trump}")
        for seat in range(4):
            view = seat_view(match, seat)
            state = {None: "undecided", True: "plays", False: "sits out"}[view.active[seat]]
            hand = " ".join(map(str, view.hand))
            marker = "*" if match.current_seat == seat else " "
            lines.append(f"{marker}player_{seat}: {hand:<15} {state}  tricks {current.tricks_won[seat]}")
        for index, trick in enumerate(current.tricks):
            if trick:
                lines.append(f"trick {index + 1}: " + " ".join(map(str, trick)))
        if current.is_over and current.deltas is not None:
            lines.append("changes: " + " ".join(f"{d:+d}" for d in current.deltas))
    to_act = match.current_seat
    if to_act is not None:
        view = seat_view(match, to_act)
        lines.append("legal: " + ", ".join(action_name(i, view.hand_mask) for i in legal_ids(view)))
    return "\n".join(lines)

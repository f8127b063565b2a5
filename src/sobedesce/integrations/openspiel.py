"""Sobe e Desce as an OpenSpiel Python game, ``python_sobe_e_desce`` (extra ``[openspiel]``).

Importing this module registers the game.  Parameters: ``rules`` (``classic``/``table``, or
a variant such as ``classic/min_discard:1``),
``episode`` (``round``/``match``), ``dealer`` (0-3, the first dealer), ``scores`` and
``streaks`` (the start scores and sit-out streaks, four numbers joined by ``_``, to play a round
from the middle of a match), ``max_rounds`` (a match is cut after this many rounds).  Chance deals the deck one card at a
time (40 chance nodes a round, outcome = card index).  See docs/integrations.md.

It also provides :class:`ISMCTSPeer`, OpenSpiel's information-set MCTS as a bot of this
project (``--bots openspiel-ismcts:simulations=200`` or ``:seconds=0.02``), and
:class:`SobeBot`, any bot of this project as a ``pyspiel.Bot``.
"""

from __future__ import annotations

import math
import operator
import random
import time
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"sobedesce.integrations.openspiel needs OpenSpiel ({error}): pip install 'sobe-e-desce[openspiel]'"
    ) from None

from sobedesce.core import (
    CARDS,
    Action,
    Match,
    Phase,
    Rules,
    SeatView,
    cards_of,
    find_rules,
    format_cards,
    seat_view,
)
from sobedesce.core.logic import STOCK, chooser_of, packet_indices

from ._encoding import (
    EXCHANGE_BASE,
    NUM_ACTIONS,
    OBS_SIZE,
    OBS_SLOTS,
    PLAY_BASE,
    SIT_OUT_ID,
    TURN_UP_ID,
    action_from_id,
    action_name,
    id_of,
    observe,
)
from ._resample import OwnCards, sample_deal

__all__ = ["GAME_NAME", "ISMCTSPeer", "SobeBot", "SobeGame", "SobeState", "rules_param", "state_from_view"]

GAME_NAME = "python_sobe_e_desce"
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
SEATS = 4
_PARAMS: dict[str, Any] = {
    "rules": "classic",
    "episode": "round",
    "dealer": 0,
    "scores": "",
    "streaks": "",
    "max_rounds": 200,
}
# The information-state tensor: the observation, then the seat's own first packet, second
# packet and draws (40 each), then 5 tricks x 4 plays x (40 card + 4 relative seat).
INFO_HISTORY = 3 * 40 + 5 * 4 * 44
INFO_SIZE = OBS_SIZE + INFO_HISTORY


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Sobe e Desce",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=SEATS,
        min_num_players=SEATS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMS,
    )


# One round is general-sum (score changes); a match is zero-sum (riscos).
_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_MATCH_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def _ints(name: str, text: str, default: int) -> tuple[int, ...]:
    if not text.strip():
        return (default,) * SEATS
    try:
        values = tuple(int(part) for part in text.replace(",", " ").replace("_", " ").split())
    except ValueError:
        values = ()
    if len(values) != SEATS:
        raise ValueError(f"{name} needs four whole numbers joined by _ (like 20_20_20_20), not {text!r}")
    return values


def _rules_param(text: str) -> Rules:
    """The ``rules`` parameter: a preset name, or a variant of one as ``PRESET/setting:value/...``
    (the settings of a record's rules object, RECORD.md; ``true``, ``false``, ``none``, whole
    numbers, suit letters), in a form OpenSpiel's game strings carry."""
    preset, *pairs = text.split("/")
    if not pairs:
        return find_rules(preset)
    spec: dict[str, object] = {"preset": preset.strip()}
    for pair in pairs:
        key, sep, value = pair.partition(":")
        if not sep or not key.strip():
            raise ValueError(f"rules: write PRESET/setting:value/..., not {text!r}")
        word = value.strip()
        spec[key.strip()] = _SPEC_WORDS.get(word.lower(), int(word) if word.lstrip("-").isdigit() else word)
    return Rules.from_spec(spec)


_SPEC_WORDS: dict[str, object] = {"true": True, "false": False, "none": None, "null": None}


def rules_param(rules: Rules) -> str:
    """The ``rules`` parameter that loads a game under ``rules`` (a preset or a variant of one)."""
    overrides = rules.overrides()
    words = {True: "true", False: "false", None: "none"}
    return "/".join(
        [rules.preset]
        + [
            f"{key}:{words[value] if value is None or isinstance(value, bool) else value}"
            for key, value in overrides.items()
        ]
    )


def _whole(name: str, value: object, low: int, high: int | None = None) -> int:
    """A game parameter that is a whole number from ``low`` (to ``high``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(
            f"{name} must be {low} to {high}, not {value}"
            if high is not None
            else f"{name} must be at least {low}, not {value}"
        )
    return value


class SobeGame(pyspiel.Game):  # type: ignore[misc]
    """The game; ``pyspiel.load_game("python_sobe_e_desce", {"rules": "table"})`` builds one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_PARAMS, **(params or {})}
        self.rules = _rules_param(str(settings["rules"]))
        self.episode = str(settings["episode"])
        if self.episode not in ("round", "match"):
            raise ValueError(f'episode must be "round" or "match", not {self.episode!r}')
        self.first_dealer = _whole("dealer", settings["dealer"], 0, SEATS - 1)
        self.start_scores = _ints("scores", str(settings["scores"]), self.rules.start_score)
        target = self.rules.target_score
        if min(self.start_scores) <= target:
            raise ValueError(
                f"scores must each be above the target score {target} (a match that has ended has no round to play),"
                f" not {settings['scores']!r}"
            )
        self.start_streaks = _ints("streaks", str(settings["streaks"]), 0)
        limit = self.rules.max_sit_outs_in_row
        if not all(0 <= streak <= limit for streak in self.start_streaks):
            raise ValueError(
                f"streaks must each be 0 to {limit} (a seat that sat out {limit} rounds in a row must play),"
                f" not {settings['streaks']!r}"
            )
        max_rounds = _whole("max_rounds", settings["max_rounds"], 1)
        self.max_rounds = max_rounds if self.episode == "match" else 1
        per_round = 40 + 1 + SEATS + 20
        # A round's score change is -5 (every trick) to the no-trick penalty, times the
        # doubled suit's multiplier: -10 to +10 in both presets.
        rules = self.rules
        multiplier = max(1, rules.doubled_multiplier) if rules.doubled_suit is not None else 1
        most_lost = float(rules.no_trick_penalty * multiplier)
        if self.episode == "round":
            low, high, total = -most_lost, float(5 * multiplier), None
        else:
            worst = float(max(self.start_scores) + most_lost * self.max_rounds)
            low, high, total = -worst, 3 * worst, 0.0
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=40,
            num_players=SEATS,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=per_round * self.max_rounds,
        )
        super().__init__(_GAME_TYPE if self.episode == "round" else _MATCH_TYPE, info, params or {})

    def new_initial_state(self) -> SobeState:
        return SobeState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SobeObserver:
        if params:
            raise ValueError(f"the observer of {GAME_NAME} takes no parameters, not {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{GAME_NAME} observes one seat at a time: private_info=ALL_PLAYERS is not provided")
        public_only = private == pyspiel.PrivateInfoType.NONE
        if public_only and perfect_recall:
            raise ValueError(
                f"{GAME_NAME} provides no public information state (perfect_recall with private_info=NONE)"
            )
        return SobeObserver(perfect_recall, public_only=public_only)


class _Settings:
    """What a state needs of its game (plain values: states are copied by pickling)."""

    __slots__ = ("episode", "first_dealer", "max_rounds", "rules")

    def __init__(self, rules: str, episode: str, first_dealer: int, max_rounds: int) -> None:
        self.rules = rules
        self.episode = episode
        self.first_dealer = first_dealer
        self.max_rounds = max_rounds

    def __getstate__(self) -> tuple[str, str, int, int]:
        return self.rules, self.episode, self.first_dealer, self.max_rounds

    def __setstate__(self, state: tuple[str, str, int, int]) -> None:
        self.rules, self.episode, self.first_dealer, self.max_rounds = state


class _MatchBox:
    """Holds the match so that OpenSpiel's clone (a deep copy) uses the match's own cheap
    ``copy()`` instead of copying every object of it."""

    __slots__ = ("match",)

    def __init__(self, match: Match) -> None:
        self.match = match

    def __deepcopy__(self, memo: dict[int, Any]) -> _MatchBox:
        return _MatchBox(self.match.copy())

    def __getstate__(self) -> Match:
        return self.match

    def __setstate__(self, match: Match) -> None:
        self.match = match


def _chance_error(card: int) -> str:
    why = "dealt already" if 0 <= card < 40 else "not a card"
    return f"chance outcome {card} is {why}: a chance node deals a card 0-39 not dealt yet"


# OpenSpiel's own methods, which ``SobeState`` calls after its check of -1.
_STATE_APPLY_ACTION = pyspiel.State.apply_action
_STATE_CHILD = pyspiel.State.child


class SobeState(pyspiel.State):  # type: ignore[misc]
    """A state: the match, and the cards dealt so far for the round to come."""

    def __init__(self, game: SobeGame) -> None:
        super().__init__(game)
        self._game = _Settings(game.rules.name, game.episode, game.first_dealer, game.max_rounds)
        self._box = _MatchBox(Match(game.rules, scores=game.start_scores, sat_out_before=game.start_streaks))
        self.dealt: list[int] = []
        self.prefix = 0
        """History length before the current round's first chance node."""
        self._length = 0

    @property
    def match(self) -> Match:
        """The match in this state (the current round is ``match.round``)."""
        return self._box.match

    # -- who acts ----------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def current_player(self) -> int:
        # Called several times per action by OpenSpiel: kept to a few attribute reads.
        match = self._box.match
        seat = match.current_seat
        if seat is not None:
            return seat
        if match.is_over:
            return _TERMINAL
        current = match.round
        if current is None:
            return _CHANCE
        settings = self._game
        if settings.episode == "round" or len(match.rounds) >= settings.max_rounds:
            return _TERMINAL
        return _CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        current = self.match.round
        if current is None or player != self.match.current_seat:
            return []
        phase = current.phase
        if phase == Phase.PLAY:
            mask = current.legal_cards()
            return [PLAY_BASE + card for card in range(40) if mask >> card & 1]
        if phase == Phase.TRUMP:
            return [0, 1, 2, 3, TURN_UP_ID] if current.rules.turn_up_allowed else [0, 1, 2, 3]
        rules = current.rules
        ids = [SIT_OUT_ID] if current.may_sit_out(player) else []
        size = current.hands[player].bit_count()
        ids.extend(
            EXCHANGE_BASE + mask
            for mask in range(1 << size)
            if rules.min_discard <= mask.bit_count() <= rules.max_discard
        )
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(40)) - set(self.dealt))
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    # -- doing ---------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """OpenSpiel's ``apply_action``, with this game's own error for -1 too: OpenSpiel's C++
        ``State::ApplyAction`` refuses -1 (its ``kInvalidAction``) with a bare ``SpielError``
        before :meth:`_apply_action`, which words every other refusal, is called."""
        if action == -1:
            self._refuse_invalid(action)
        _STATE_APPLY_ACTION(self, action)

    def child(self, action: int) -> SobeState:
        """OpenSpiel's ``child`` (a copy with ``action`` applied), refusing -1 as
        :meth:`apply_action` does."""
        if action == -1:
            self._refuse_invalid(action)
        return _STATE_CHILD(self, action)  # type: ignore[no-any-return]

    def _refuse_invalid(self, action: object) -> None:
        """Raise this game's error for ``action``, equal to -1: at a chance node it is no card,
        at a decision no action id (-1.0, no integer, is left to OpenSpiel's ``TypeError``)."""
        try:
            operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            return
        if self.current_player() == _CHANCE:
            raise ValueError(_chance_error(-1))
        action_from_id(-1, 0)  # raises "not an action id: -1 (0..77)"

    def _apply_action(self, action: int) -> None:
        match = self.match
        if self.current_player() == _CHANCE:
            card = int(action)
            if not 0 <= card < 40 or card in self.dealt:
                raise ValueError(_chance_error(card))
            if not self.dealt:
                self.prefix = self._length
            self.dealt.append(card)
            self._length += 1
            if len(self.dealt) == 40:
                dealer = self._game.first_dealer if not match.rounds else None
                match.deal(tuple(CARDS[c] for c in self.dealt), dealer=dealer)
                self.dealt = []
            return
        current = match.round
        seat = match.current_seat
        assert current is not None and seat is not None
        match.apply(action_from_id(int(action), current.hands[seat]))
        self._length += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if not 0 <= action < 40:
                raise ValueError(f"chance outcome {action} is not a card: a chance node deals a card 0-39")
            return f"deal {CARDS[action]}"
        current = self.match.round
        hand = current.hands[player] if current is not None and 0 <= player < SEATS else None
        return action_name(int(action), hand)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * SEATS
        if self._game.episode == "round":
            current = self.match.round
            assert current is not None and current.deltas is not None
            return [float(-d) for d in current.deltas]
        if self.match.is_over:
            return [float(r) for r in self.match.returns()]
        scores = self.match.scores
        low = min(scores)
        from sobedesce.core import riscos_for

        return [float(r) for r in riscos_for(scores, [s for s in range(SEATS) if scores[s] == low])]

    def __str__(self) -> str:
        current = self.match.round
        parts = [f"scores {self.match.scores}"]
        if self.dealt:
            parts.append("dealt " + format_cards(CARDS[c] for c in self.dealt))
        if current is not None:
            parts.append(repr(current))
            parts.extend(f"{seat}: {format_cards(cards_of(current.hands[seat]))}" for seat in range(SEATS))
            parts.append("tricks " + " | ".join(format_cards(t) for t in current.tricks))
        return "\n".join(parts)

    # -- what a seat knows ---------------------------------------------------------------

    def own_cards(self, player: int) -> OwnCards | None:
        """The seat's packets and draws in the current round (None before the deal)."""
        player = _whole("player", player, 0, SEATS - 1)
        current = self.match.round
        if current is None or current.deck is None or current.is_over:
            return None
        deck = current.deck
        first_at, second_at = packet_indices(player, current.chooser)
        first = tuple(deck[i] for i in first_at)
        second = tuple(deck[i] for i in second_at) if current.trump is not None else ()
        drawn: tuple[Any, ...] = ()
        if current.active[player]:
            offset = STOCK
            for step in range((player - current.chooser) % SEATS):
                seat = current.exchange_seat(step)
                offset += current.discards[seat] if current.active[seat] else 0
            drawn = tuple(deck[offset : offset + current.discards[player]])
        return OwnCards(first, second, drawn)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SobeState:
        """A state the seat cannot tell from this one, the hidden cards drawn uniformly among
        those consistent with its information (``_resample.sample_deal``).  Only at a decision
        node: at a chance node (the deck being dealt) or a terminal state no round is in play,
        and there are no hidden cards to redraw (``ValueError``)."""
        player = self.current_player()
        if player in (_CHANCE, _TERMINAL):
            where = "a chance node (the deck being dealt)" if player == _CHANCE else "a terminal state"
            raise ValueError(
                f"resample_from_infostate: no round in play at {where}, so no hidden cards to resample:"
                " call it at a decision node, where a seat is to act"
            )
        seed = int(probability_sampler() * 2**53)
        rng = random.Random(seed)
        view = seat_view(self.match, player_id)
        deal = sample_deal(view, rng, self.own_cards(player_id))
        history = self.history()
        new = self.get_game().new_initial_state()
        for action in history[: self.prefix]:
            new.apply_action(action)
        for card in deal.deck:
            new.apply_action(int(card))
        for action in deal.actions:
            current = new.match.round
            seat = new.match.current_seat
            new.apply_action(id_of(action, current.hands[seat]))
        return new  # type: ignore[no-any-return]

    def info_string(self, player: int) -> str:
        """Everything ``player`` has seen in the match, in order."""
        out: list[str] = [f"p{player}"]
        rounds = self.match.rounds
        for number, current in enumerate(rounds):
            out.append(f"|r{number} d{current.dealer} s{','.join(map(str, current.scores))}")
            deck = current.deck
            assert deck is not None
            first_at, second_at = packet_indices(player, current.chooser)
            out.append("h" + format_cards(deck[i] for i in first_at))
            if current.trump is None:
                continue
            out.append(f"t{current.turned_card}" if current.turned else f"t{current.trump.letter}")
            out.append("+" + format_cards(deck[i] for i in second_at))
            offset = STOCK
            for step, decision in enumerate(current.exchanges):
                seat = current.exchange_seat(step)
                if not current.active[seat]:
                    out.append(f"{seat}o")
                    continue
                k = current.discards[seat]
                if seat == player:
                    discard = getattr(decision, "discard", ())
                    out.append(f"{seat}x{format_cards(discard)}/{format_cards(deck[offset : offset + k])}")
                else:
                    out.append(f"{seat}x{k}")
                offset += k
            for trick in current.tricks:
                out.append("/" + " ".join(str(c) for c in trick))
            if current.is_over:
                out.append("=" + ",".join(map(str, current.deltas or ())))
        if self.dealt:
            current_dealer = self._next_dealer()
            first_at = packet_indices(player, chooser_of(current_dealer))[0]
            mine = [c for pos, c in enumerate(self.dealt) if pos in first_at]
            out.append(f"|deal{len(self.dealt)} " + format_cards(CARDS[c] for c in mine))
        return " ".join(out)

    def _next_dealer(self) -> int:
        nxt = self.match.next_dealer
        return self._game.first_dealer if nxt is None else nxt


def _view(state: SobeState, player: int) -> SeatView:
    return seat_view(state.match, player)


class SobeObserver:
    """The observer OpenSpiel asks for tensors and strings (perfect recall: information state).

    ``public_only`` (OpenSpiel's ``private_info=NONE``): what every seat sees, the seat's own
    hand and discards left out (their slots stay 0)."""

    def __init__(self, perfect_recall: bool, public_only: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.public_only = public_only
        self.tensor = np.zeros(INFO_SIZE if perfect_recall else OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SobeState, player: int) -> None:
        view = _view(state, player)
        self.tensor[:OBS_SIZE] = np.clip(np.asarray(observe(view), np.float32), -5.0, 5.0)
        if self.public_only:
            for name in _PRIVATE_SLOTS:
                start, length = OBS_SLOTS[name]
                self.tensor[start : start + length] = 0.0
        if not self.perfect_recall:
            return
        history = self.tensor[OBS_SIZE:]
        history.fill(0.0)
        own = state.own_cards(player)
        if own is not None:
            for block, cards in enumerate((own.first, own.second, own.drawn)):
                for card in cards:
                    history[40 * block + card] = 1.0
        base = 120
        for t, trick in enumerate(view.tricks[:5]):
            for k, (card, seat) in enumerate(zip(trick.cards, trick.seats, strict=True)):
                slot = base + (4 * t + k) * 44
                history[slot + card] = 1.0
                history[slot + 40 + (seat - player) % SEATS] = 1.0

    def string_from(self, state: SobeState, player: int) -> str:
        if self.perfect_recall:
            return state.info_string(player)
        view = _view(state, player)
        trick = view.current_trick
        hand = "-" if self.public_only else format_cards(view.hand)
        return (
            f"p{player} {view.phase.label} hand {hand} trump {view.trump or '-'}"
            f" turned {view.turned_card or '-'} active {''.join('?' if a is None else 'yn'[a] for a in view.active)}"
            f" x {''.join('-' if k is None else str(k) for k in view.discard_counts)}"
            f" trick {format_cards(trick.cards) if trick else '-'} won {view.tricks_won} scores {view.scores}"
        )


# The observation's slots only the seat itself may see (left out of a public observation).
_PRIVATE_SLOTS = ("hand", "my_discards")

pyspiel.register_game(_GAME_TYPE, SobeGame)


# -- a round in play as an OpenSpiel state, and the bots ----------------------------------


def state_from_view(view: SeatView, rng: random.Random, *, own: OwnCards | None = None) -> SobeState:
    """A one-round state in the position of ``view``, the hidden cards sampled consistently."""
    if not isinstance(view, SeatView):
        raise TypeError(f"state_from_view needs a SeatView, not {view!r}")
    if view.dealer is None or view.phase not in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY):
        raise ValueError(f"state_from_view needs a view of a round in play, not one in the {view.phase.label} phase")
    game = pyspiel.load_game(
        GAME_NAME,
        {
            "rules": rules_param(view.rules),  # a variant's settings too: it is searched by its own rules
            "episode": "round",
            "dealer": view.dealer,
            "scores": "_".join(map(str, view.scores)),
            "streaks": "_".join(map(str, view.sat_out_streaks)),
        },
    )
    deal = sample_deal(view, rng, own)
    state: SobeState = game.new_initial_state()
    for card in deal.deck:
        state.apply_action(int(card))
    for action in deal.actions:
        current = state.match.round
        seat = state.match.current_seat
        assert current is not None and seat is not None
        state.apply_action(id_of(action, current.hands[seat]))
    return state


class _TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS stopping at a number of simulations or at a time limit."""

    def __init__(self, *args: Any, seconds: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self.simulations_done = 0

    def run_search(self, state: Any) -> Any:
        if self._seconds is None:
            self.simulations_done = self._max_simulations
            return super().run_search(state)
        deadline = time.perf_counter() + self._seconds
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        done = 0
        # At least two simulations: the first only expands the root.
        while done < self._max_simulations and (self._root_node.total_visits < 1 or time.perf_counter() < deadline):
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations_done = done
        return self.get_final_policy(state, self._root_node)


class ISMCTSPeer:
    """OpenSpiel's IS-MCTS (random roll-outs) seated in this project's arena.

    ``simulations`` caps the simulations per decision; ``seconds`` (if set) is a time budget per
    decision instead.  Returns are the round's score changes (negated), so it plays the round
    for its own score.
    """

    name = "openspiel-ismcts"

    def __init__(
        self, simulations: int = 200, seconds: float | None = None, uct_c: float = 2.0, rollouts: int = 1
    ) -> None:
        # Checked here, before any game: OpenSpiel would otherwise fail inside the search (no
        # roll-out), search without end (seconds=inf) or stop at once (seconds=nan).
        simulations = _whole("simulations", simulations, 1)
        rollouts = _whole("rollouts", rollouts, 1)
        if isinstance(seconds, bool) or not isinstance(seconds, int | float | None):
            raise TypeError(f"seconds must be a number of seconds or none, not {seconds!r}")
        if seconds is not None and not (0 < seconds < math.inf):
            raise ValueError(f"seconds must be positive or none, not {seconds}")
        if isinstance(uct_c, bool) or not isinstance(uct_c, int | float):
            raise TypeError(f"uct_c must be a number, not {uct_c!r}")
        if not 0 <= uct_c < math.inf:
            raise ValueError(f"uct_c (the exploration constant) must be 0 or more, not {uct_c}")
        self.simulations = simulations
        self.seconds = seconds
        self.uct_c = uct_c
        self.rollouts = rollouts

    def _search(self, view: SeatView, rng: random.Random) -> list[tuple[int, float]]:
        state = state_from_view(view, rng)
        np_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=np_rng)
        limit = self.simulations if self.seconds is None else 10**9
        bot = _TimedISMCTS(
            state.get_game(),
            evaluator,
            self.uct_c,
            limit,
            random_state=np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            seconds=self.seconds,
        )
        # OpenSpiel's IS-MCTS resamples with an unseeded ``pyspiel.UniformProbabilitySampler``,
        # which made the same seed give other decisions on every run: resample from ``rng``.
        sampler = random.Random(rng.getrandbits(64)).random
        bot.set_resampler(lambda sampled, player: sampled.resample_from_infostate(player, sampler))
        return list(bot.run_search(state))

    def act(self, view: SeatView, rng: random.Random) -> Action:
        from sobedesce.bots.base import forced_action

        forced = forced_action(view)
        if forced is not None:
            return forced
        policy = self._search(view, rng)
        best = max(p for _, p in policy)
        chosen = min(a for a, p in policy if p == best)
        return action_from_id(int(chosen), view.hand_mask)

    def explain(self, view: SeatView, rng: random.Random) -> list[Any]:
        from sobedesce.bots import Option

        if not view.legal_actions:
            return []
        if len(view.legal_actions) == 1:
            return [Option(view.legal_actions[0], 0.0, "the only legal action")]
        policy = sorted(self._search(view, rng), key=lambda pair: -pair[1])
        return [Option(action_from_id(int(a), view.hand_mask), 0.0, f"policy {p:.2f}") for a, p in policy]


class SobeBot(pyspiel.Bot):  # type: ignore[misc]
    """A bot of this project (``make_bot`` name, e.g. ``strong``) as an OpenSpiel bot."""

    def __init__(self, name: str, player_id: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from sobedesce.bots import make_bot

        self.bot = make_bot(name)
        self.player_id = _whole("player_id", player_id, 0, SEATS - 1)
        self.rng = random.Random(seed)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: SobeState) -> int:
        view = seat_view(state.match, self.player_id)
        action = self.bot.act(view, self.rng)
        return id_of(action, view.hand_mask)

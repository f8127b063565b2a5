// Finished matches: your history, and a replay viewer that deals each round again from the
// record's deck (RECORD.md) and steps through it with every hand face up, as far as it was
// dealt at that step.

import { render } from "./app.js";
import { cardFace, cardName, cardText, h, said, spoken, SUIT_SYMBOL, sortCards, suitOf, suitText, trickWinner } from "./cards.js";
import { dateTime, isolate, num, playerName, signed, t } from "./i18n.js";
import { nameForm } from "./lobby.js";
import { scoreTable } from "./scores.js";
import { seatPositions } from "./table.js";

const START_SCORE = 20;
// `historyVisit`: the visit of the page the history was asked for (the route, a new object at
// each visit). Asked once, it never showed a match finished after the page's first visit.
const cache = { history: null, historyMore: false, historyOf: null, historyVisit: null, replay: null, recent: null, recentVisit: null };

// -- history --------------------------------------------------------------------------

// A GET of the API with the player's token, which shows their private tables' matches too
// (to them alone); a token the server no longer knows is left out, as with no name.
async function fetchAs(path, token) {
  if (token) {
    const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
    if (response.status !== 401) return response;
  }
  return fetch(path);
}

// A page of a history holds this many matches; "Older matches" asks for the next page (the
// page showed the newest 50 only, and no way to the others).
const HISTORY_PAGE = 50;

async function loadHistory(name, token, before = null) {
  const query = `limit=${HISTORY_PAGE}${before === null ? "" : `&before=${before}`}`;
  const response = await fetchAs(`/api/players/${encodeURIComponent(name)}/history?${query}`, token);
  const rows = response.ok ? await response.json() : [];
  if (cache.historyOf !== name) return; // another name since
  if (before !== null && cache.history?.at(-1)?.match !== before) return; // asked twice, or a new visit since
  cache.history = before === null ? rows : [...cache.history, ...rows];
  cache.historyMore = rows.length === HISTORY_PAGE;
  render();
}

// The last public matches, for one with no name yet (a watcher come by a link): each can be
// replayed by anyone, and the history page offered them nothing but the form for a name.
async function loadRecent() {
  const response = await fetch("/api/matches?limit=20");
  cache.recent = response.ok ? await response.json() : [];
  render();
}

function recentMatches(app) {
  if (cache.recentVisit !== app.route) {
    cache.recentVisit = app.route;
    loadRecent();
  }
  const rows = cache.recent;
  if (!rows || rows.length === 0) return null;
  return h(
    "section",
    { class: "panel", id: "recent", "aria-labelledby": "recent-title" },
    h("h2", { id: "recent-title" }, t("recent_title")),
    h(
      "table",
      { class: "board history" },
      h("thead", {}, h("tr", {}, ["col_when", "col_rules", "col_players", "col_winners", "replay"].map((key) => h("th", { scope: "col" }, t(key))))),
      h(
        "tbody",
        {},
        rows.map((row) => {
          const names = numberBots(row.players);
          return h(
            "tr",
            { "data-match": row.match },
            h("td", {}, dateTime(row.finished_at)),
            h("td", {}, t(`rules_${row.rules}`)),
            h("td", {}, names.join(", ")),
            h("td", { "data-label": t("col_winners") }, row.winners.map((seat) => names[seat]).join(", ")),
            h("td", {}, h("a", { href: `#/replay/${row.match}` }, t("replay"))),
          );
        }),
      ),
    ),
  );
}

export function renderHistory(app) {
  // Without a name, the form to choose one (it only said "Choose your name first", with no
  // way to do so on the page), and the last public matches to replay.
  if (!app.player?.name) return [nameForm(app), recentMatches(app)].filter(Boolean);
  if (cache.historyOf !== app.player.name || cache.historyVisit !== app.route) {
    // Another name's list is not shown meanwhile; this name's last one is.
    if (cache.historyOf !== app.player.name) cache.history = null;
    cache.historyOf = app.player.name;
    cache.historyVisit = app.route;
    loadHistory(app.player.name, app.player.token);
  }
  const rows = cache.history;
  return h(
    "section",
    { class: "panel", id: "history", "aria-labelledby": "history-title" },
    h("h1", { id: "history-title" }, t("history_title")),
    rows === null
      ? h("p", { class: "help" }, "…")
      : rows.length === 0
      ? h("p", { class: "help" }, t("no_history"))
      : h(
          "table",
          { class: "board history" },
          h("thead", {}, h("tr", {}, ["col_when", "col_rules", "col_players", "col_score", "col_riscos", "col_result", "replay"].map((key) => h("th", { scope: "col" }, t(key))))),
          h(
            "tbody",
            {},
            rows.map((row) =>
              h(
                "tr",
                { "data-match": row.match },
                h("td", {}, dateTime(row.finished_at)),
                h("td", {}, t(`rules_${row.rules}`)),
                h("td", {}, numberBots(row.players).join(", ")),
                h("td", { "data-label": t("col_score") }, num(row.score)),
                h("td", { "data-label": t("col_riscos") }, signed(row.riscos)),
                h("td", {}, row.won ? t("won") : t("lost")),
                h("td", {}, h("a", { href: `#/replay/${row.match}` }, t("replay"))),
              ),
            ),
          ),
        ),
    rows?.length && cache.historyMore
      ? h(
          "button",
          {
            type: "button",
            id: "history-more",
            "data-key": "history-more",
            onclick: () => loadHistory(app.player.name, app.player.token, rows.at(-1).match),
          },
          t("older_matches"),
        )
      : null,
  );
}

// A match's players as its history names them ("Bot (easy)": one player for every bot of a
// level) numbered as at the table, where its bots are Bot 1, 2, 3 in seat order.
function numberBots(players) {
  let bots = 0;
  return players.map((name) => playerName(name, name.startsWith("Bot (") ? ++bots : null));
}

// -- the replay model -----------------------------------------------------------------

// One round of a record as a list of steps, each with every hand, the trick on the table and
// the tricks won so far; and the round's score changes.
function replayRound(round, scoresBefore) {
  const deck = round.deck;
  const dealer = round.dealer;
  const chooser = (dealer + 1) % 4;
  const order = [0, 1, 2, 3].map((i) => (chooser + i) % 4);
  const hands = [[], [], [], []];
  order.forEach((seat, i) => hands[seat].push(...deck.slice(i * 3, i * 3 + 3)));
  const turned = round.trump === "turn" ? deck[12] : null;
  const trump = turned ? suitOf(turned) : round.trump;
  let shownTrump = null;
  const active = [null, null, null, null];
  const discards = [[], [], [], []];
  const won = [0, 0, 0, 0];
  let trick = { cards: [], seats: [], winner: null };
  const steps = [];
  const snap = (note) =>
    steps.push({
      note,
      hands: hands.map((hand) => sortCards(hand)),
      discards: discards.map((cards) => [...cards]),
      active: [...active],
      trick: { ...trick, cards: [...trick.cards], seats: [...trick.seats] },
      won: [...won],
      trump: shownTrump,
    });
  // Each step shows what had happened by then: the first part of the deal (three cards each,
  // the chooser's to choose from), then the trump and the second part (five cards each).
  snap({ key: "step_deal" });
  order.forEach((seat, i) => hands[seat].push(...deck.slice(12 + i * 2, 14 + i * 2)));
  shownTrump = trump;
  snap(turned ? { key: "step_trump_turned", seat: chooser, card: turned, suit: trump } : { key: "step_trump_named", seat: chooser, suit: trump });
  let top = 20;
  for (const exchange of round.exchanges ?? []) {
    const seat = exchange.seat;
    if (exchange.sit_out) {
      active[seat] = false;
      snap({ key: "step_sit_out", seat });
      continue;
    }
    active[seat] = true;
    const discard = exchange.discard ?? [];
    hands[seat] = hands[seat].filter((card) => !discard.includes(card)).concat(deck.slice(top, top + discard.length));
    discards[seat].push(...discard);
    top += discard.length;
    snap(discard.length ? { key: "step_exchange", seat, cards: discard } : { key: "step_keep", seat });
  }
  const players = order.filter((seat) => active[seat]);
  if (players.length === 1) {
    won[players[0]] = 5;
    snap({ key: "step_lone", seat: players[0] });
  } else if (players.length === 0 && (round.exchanges ?? []).length === 4) {
    snap({ key: "step_void" });
  }
  // The chooser leads if active, else the first active seat after them; the winner leads next.
  let leader = players[0];
  for (const cards of round.tricks ?? []) {
    const seats = [0, 1, 2, 3].map((i) => (leader + i) % 4).filter((seat) => active[seat]);
    trick = { cards: [], seats: [], winner: null };
    cards.forEach((card, i) => {
      hands[seats[i]] = hands[seats[i]].filter((held) => held !== card);
      trick.cards.push(card);
      trick.seats.push(seats[i]);
      if (trick.cards.length === players.length) {
        trick.winner = seats[trickWinner(trick.cards, trump)];
        won[trick.winner] += 1;
        leader = trick.winner;
      }
      snap({ key: "step_play", seat: seats[i], card });
    });
  }
  const multiplier = trump === "C" ? 2 : 1;
  const complete = players.length < 2 || (round.tricks ?? []).flat().length === 5 * players.length;
  const deltas = active.map((playing, seat) => {
    if (!playing || !complete) return 0;
    return won[seat] ? -won[seat] * multiplier : 5 * multiplier;
  });
  const scores = scoresBefore.map((score, seat) => score + deltas[seat]);
  // A round played out ends on a step of its own: who took the last trick (still on the
  // table), and the round's score changes (replayMatch adds the match's winners to the last).
  // The replay stopped at the last card played, its trick's winner and the result untold.
  if (complete) {
    const last = (round.tricks ?? []).length && players.length > 1 ? trick.winner : null;
    snap({ key: "step_round_over", seat: last, deltas, scores });
  }
  return { dealer, chooser, trump, turned, steps, deltas, scores, active, won };
}

function replayMatch(record) {
  let scores = record.scores ?? [START_SCORE, START_SCORE, START_SCORE, START_SCORE];
  const rounds = record.rounds.map((round, index) => {
    const replayed = replayRound(round, scores);
    scores = replayed.scores;
    return { ...replayed, round: index + 1 };
  });
  // Every player at 0 or below after the last round wins (RULES.md 3.8): said on its last step.
  const end = rounds[rounds.length - 1]?.steps.at(-1)?.note;
  if (end?.key === "step_round_over" && scores.some((score) => score <= 0)) {
    end.winners = [0, 1, 2, 3].filter((seat) => scores[seat] <= 0);
  }
  return rounds;
}

// -- the viewer -----------------------------------------------------------------------

async function loadReplay(id, token) {
  const response = await fetchAs(`/api/matches/${encodeURIComponent(id)}/record`, token);
  if (cache.replay?.id !== id) return; // another match since
  if (!response.ok) {
    cache.replay = { id, error: "not_found" };
  } else {
    const text = await response.text();
    const record = JSON.parse(text);
    // Downloaded from what was read: a private table's record needs the token, which a
    // link cannot send.
    const href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    cache.replay = { id, record, href, rounds: replayMatch(record), round: 0, step: 0 };
  }
  render();
}

// The first step of a round, or (``end``) its last.
function jump(replay, round, end = false) {
  replay.round = round;
  replay.step = end ? replay.rounds[round].steps.length - 1 : 0;
  render();
}

// A record's rule set as the lobby names it ("Classic"); changed settings say so.
function rulesName(rules) {
  const preset = typeof rules === "string" ? rules : rules?.preset ?? "classic";
  const name = preset === "table" || preset === "classic" ? t(`rules_${preset}`) : preset;
  return typeof rules === "object" && rules !== null && Object.keys(rules).some((k) => k !== "preset") ? `${name} (${t("rules_custom")})` : name;
}

function move(replay, roundDelta, stepDelta) {
  const rounds = replay.rounds;
  if (roundDelta) {
    replay.round = Math.max(0, Math.min(rounds.length - 1, replay.round + roundDelta));
    replay.step = 0;
  } else {
    let step = replay.step + stepDelta;
    if (step < 0 && replay.round > 0) {
      replay.round -= 1;
      step = rounds[replay.round].steps.length - 1;
    } else if (step >= rounds[replay.round].steps.length && replay.round < rounds.length - 1) {
      replay.round += 1;
      step = 0;
    }
    replay.step = Math.max(0, Math.min(rounds[replay.round].steps.length - 1, step));
  }
  render();
}

export function renderReplay(app) {
  const id = app.route.id;
  if (cache.replay?.id !== id) {
    if (cache.replay?.href) URL.revokeObjectURL(cache.replay.href);
    cache.replay = { id };
    loadReplay(id, app.player?.token);
  }
  const replay = cache.replay;
  // A bad link (a match that is not there, "#/replay/abc") says so with the ways on, as a
  // bad invitation does: it was "Not found." alone.
  if (replay.error) {
    return h(
      "div",
      { class: "panel", id: "replay-missing" },
      h("p", { class: "notice", role: "status" }, t(replay.error)),
      h(
        "div",
        { class: "row" },
        h("a", { class: "button primary", href: "#/history", "data-key": "to-history" }, t("nav_history")),
        h("a", { class: "button", href: "#/", "data-key": "to-lobby" }, t("new_match")),
      ),
    );
  }
  if (!replay.rounds) return h("p", { class: "panel" }, "…");
  const record = replay.record;
  const names = record.players ? record.players.map((name) => playerName(name)) : [0, 1, 2, 3].map((seat) => t("seat_n", { n: seat + 1 }));
  const round = replay.rounds[replay.round];
  const step = round.steps[replay.step];
  const direction = (record.rules?.preset ?? record.rules) === "table" ? "clockwise" : "counter-clockwise";
  const positions = seatPositions(direction, 0);
  const button = (key, label, onclick, disabled) => h("button", { type: "button", "data-key": key, id: key, onclick, disabled }, label);
  const last = replay.round === replay.rounds.length - 1 && replay.step === round.steps.length - 1;
  const first = replay.round === 0 && replay.step === 0;
  const stepText = `${t("round_n", { n: replay.round + 1 })} · ${t("step_n", { i: replay.step + 1, n: round.steps.length })} · ${describeStep(step.note, names, replay.round + 1)}`;
  // The arrows are for the eye: "|◀ Start" was read as "vertical line, left-pointing triangle".
  const glyph = (text) => h("span", { "aria-hidden": "true" }, text);
  return h(
    "section",
    {
      class: "replay",
      id: "replay",
      "data-key": "replay",
      "aria-labelledby": "replay-title",
      tabindex: "-1",
      onkeydown: (event) => {
        if (event.key === "ArrowRight") move(replay, 0, 1);
        else if (event.key === "ArrowLeft") move(replay, 0, -1);
      },
    },
    h(
      "div",
      { class: "panel-head" },
      h("h1", { id: "replay-title" }, t("replay_title", { id })),
      h("p", { class: "help", id: "replay-rules" }, `${t("rules_label")}: ${rulesName(record.rules)}`),
      h("a", { class: "button", id: "download", href: replay.href, download: `sobedesce-match-${id}.json` }, t("download")),
    ),
    h(
      "div",
      { class: "replay-controls row", role: "group" },
      button("first-step", [glyph("|◀"), ` ${t("first")}`], () => jump(replay, 0), first),
      button("prev-round", [glyph("«"), ` ${t("prev_round")}`], () => move(replay, -1, 0), replay.round === 0),
      button("prev-step", [glyph("◀"), ` ${t("prev_step")}`], () => move(replay, 0, -1), first),
      button("next-step", [`${t("next_step")} `, glyph("▶")], () => move(replay, 0, 1), last),
      button("next-round", [`${t("next_round")} `, glyph("»")], () => move(replay, 1, 0), replay.round === replay.rounds.length - 1),
      button("last-step", [`${t("last")} `, glyph("▶|")], () => jump(replay, replay.rounds.length - 1, true), last),
    ),
    h(
      "p",
      { class: "banner", id: "replay-step", "data-say": spoken(stepText) },
      said(stepText),
    ),
    h(
      "div",
      { class: "felt replay-felt" },
      ["top", "left", "right", "bottom"].map((pos) => replaySeat(positions[pos], pos, names, round, step)),
      h(
        "div",
        { class: "center" },
        h(
          "div",
          { class: `trick${step.trick.winner !== null ? " done" : ""}` },
          step.trick.cards.map((card, i) => {
            const seat = step.trick.seats[i];
            return cardFace(card, { class: `played slot-${Object.keys(positions).find((p) => positions[p] === seat)}${step.trick.winner === seat ? " winner" : ""}`, label: `${names[seat]}: ${cardName(card)}` });
          }),
        ),
        h(
          "div",
          { class: "table-info" },
          h(
            "div",
            { class: "trump-box", id: "replay-trump", role: "group", "aria-label": `${t("trump")}: ${step.trump ? t(`suit_${step.trump}`) : t("no_trump_yet")}` },
            h("span", { class: "label" }, t("trump")),
            step.trump
              ? h("span", { class: `trump-suit ${"HD".includes(step.trump) ? "red" : "black"}`, "aria-hidden": "true" }, SUIT_SYMBOL[step.trump])
              : h("span", { class: "trump-none", "aria-hidden": "true" }, "?"),
          ),
        ),
      ),
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": "replay-scores" },
      h("h2", { id: "replay-scores" }, t("replay_scores")),
      // The rounds played by the step shown: the whole match's table told its end at step 1.
      scoreTable(
        names,
        replay.rounds
          .filter((r, i) => i < replay.round || (i === replay.round && replay.step === round.steps.length - 1))
          .map((r) => ({ round: r.round, deltas: r.deltas, scores: r.scores })),
      ),
    ),
  );
}

// Where focus goes when its button is disabled (the last step reached by "Next step", the
// first by "Previous step"): the step the other way, else the replay itself; it fell to the
// page's body.
export function replayFocus(app, lost) {
  const enabled = (key) => document.querySelector(`#replay [data-key="${key}"]:not(:disabled)`);
  const order = lost?.startsWith("prev") ? ["next-step", "prev-step"] : ["prev-step", "next-step"];
  return enabled(order[0]) ?? enabled(order[1]) ?? document.getElementById("replay");
}

function replaySeat(seat, pos, names, round, step) {
  const status = [];
  if (seat === round.dealer) status.push(t("dealer"));
  if (seat === round.chooser) status.push(t("chooser"));
  if (step.active[seat] === false) status.push(t("sitting_out"));
  if (step.active[seat]) status.push(step.won[seat] === 1 ? t("trick_1") : t("tricks_n", { n: step.won[seat] }));
  return h(
    "div",
    { class: `seat pos-${pos} replay-seat${step.active[seat] === false ? " out" : ""}`, "data-seat": seat },
    h("div", { class: "seat-head" }, h("span", { class: "name" }, names[seat])),
    h("div", { class: "seat-body" }, h("span", { class: "status" }, status.join(" · "))),
    h(
      "div",
      { class: "open-hand", "data-hand": seat, role: "group", "aria-label": names[seat] },
      step.hands[seat].map((card) => cardFace(card, { class: "small" })),
    ),
    step.discards[seat].length > 0 &&
      h("div", { class: "discards" }, h("span", { class: "label" }, t("discarded")), step.discards[seat].map((card) => cardFace(card, { class: "mini-face" }))),
  );
}

function describeStep(note, names, round) {
  if (note.key === "step_round_over") {
    const parts = [];
    if (note.seat !== null && note.seat !== undefined) parts.push(t("step_last_trick", { name: names[note.seat] }));
    parts.push(`${t("round_over", { n: round })}: ${note.deltas.map((delta, seat) => `${isolate(names[seat])} ${signed(delta)} (${num(note.scores[seat])})`).join(", ")}`);
    if (note.winners) parts.push(t("log_match", { names: note.winners.map((seat) => isolate(names[seat])).join(", ") }));
    return parts.join(" · ");
  }
  const vars = {
    name: names[note.seat],
    suit: note.suit ? suitText(note.suit) : "",
    card: note.card ? cardText(note.card) : "",
    cards: note.cards ? note.cards.map(cardText).join(" ") : "",
  };
  return t(note.key, vars);
}

// The table page: seats around a felt in the direction of play, the trick in the middle, the
// hand at the bottom, and the decisions the server says are legal.

import { announce, closable, closeTable, comeBack, leave, nextId, online, playAgain, render, send, showProblem, watchHash } from "./app.js";
import { cardBack, cardFace, cardName, cardText, h, said, spoken, SUIT_SYMBOL, sortCards, suitText } from "./cards.js";
import { expected, fixed, isolate, num, percent, playerName, signed, t } from "./i18n.js";
import { clockAndWatchers, nameForm } from "./lobby.js";
import { noteText, reasonText, words } from "./messages.js";
import { scoreChart, scoreTable } from "./scores.js";

// Where a tab keeps the round whose summary was dismissed at a table (read back by app.js).
export function dismissedKey(id) {
  return `sobedesce.dismissed.${id}`;
}

// Where each seat sits with the viewer at the bottom, as the terminal table draws it:
// counter-clockwise puts the next seat on the right, clockwise on the left.
export function seatPositions(direction, me) {
  const [after, across, before] = [(me + 1) % 4, (me + 2) % 4, (me + 3) % 4];
  return direction === "counter-clockwise"
    ? { bottom: me, right: after, top: across, left: before }
    : { bottom: me, left: after, top: across, right: before };
}

function positionOf(positions, seat) {
  return Object.keys(positions).find((pos) => positions[pos] === seat);
}

function seatName(table, seat) {
  const entry = table.info?.seats?.[seat];
  if (!entry) return t("seat_n", { n: seat + 1 });
  if (entry.name) return playerName(entry.name);
  // A rematch's seat kept for the person who sat there at the match before.
  return entry.kept_for ? t("kept_seat", { name: entry.kept_for }) : t("open_seat");
}

export const myTurn = (table) => {
  const state = table.state;
  return Boolean(state && table.seat !== null && state.to_act === table.seat && state.legal);
};

// Decisions are offered only once every message received is on screen, so the `v` an act
// names is the one the person is looking at; and only while the connection is open.
const canAct = (table) => myTurn(table) && !table.pumping && table.inbox.length === 0 && online();

function act(table, action) {
  if (table.pending) return;
  table.pending = nextId("a");
  table.decidedAt = table.v;
  table.problem = null;
  send({ type: "act", id: table.pending, v: table.v, action });
  // The person moves on from what is held on the felt (a finished trick they won and now
  // lead to): their own move is shown as it comes, not after the rest of the pause (the card
  // stayed in the hand for up to 1.5 s, and a second press was told "Wait for your turn").
  table.shownUntil = 0;
  table.wake?.();
  render();
}

// -- the log --------------------------------------------------------------------------

export function logLines(table, event) {
  const name = (seat) => seatName(table, seat);
  const cards = (list) => list.map(cardText).join(" ");
  switch (event.kind) {
    case "deal":
      return [{ text: t("log_deal", { round: event.round, dealer: name(event.dealer), chooser: name(event.chooser) }) }];
    case "trump":
      return event.turned
        ? [{ text: t("log_turn", { name: name(event.seat), card: cardText(event.turned), suit: suitText(event.suit) }), cards: [event.turned] }]
        : [{ text: t("log_trump", { name: name(event.seat), suit: suitText(event.suit) }) }];
    case "exchange": {
      if (event.sit_out) return [{ text: t("log_sit_out", { name: name(event.seat) }) }];
      const line = event.count
        ? { text: t("log_exchange", { name: name(event.seat), n: event.count }) }
        : { text: t("log_keep", { name: name(event.seat) }) };
      if (!event.discard?.length) return [line];
      const mine = { text: t("log_my_exchange", { discard: cards(event.discard), drawn: cards(event.drawn) }), cards: [...event.discard, ...event.drawn] };
      return [line, mine];
    }
    case "play":
      return [{ text: t("log_play", { name: name(event.seat), card: cardText(event.card) }), cards: [event.card] }];
    case "trick":
      return [{ text: t("log_trick", { name: name(event.winner), n: event.number }) }];
    case "round":
      // Each change with the score it leaves (as the replay says it): "Ana +5 (25)".
      return [{ text: `${t("log_round", { round: event.round })}: ${event.deltas.map((d, s) => `${isolate(name(s))} ${signed(d)} (${num(event.scores[s])})`).join(", ")}` }];
    case "match":
      return [{ text: t("log_match", { names: event.winners.map((seat) => isolate(name(seat))).join(", ") }) }];
    case "rematch": // someone asked for the same table again (app.js puts it in the log)
      return [{ text: t("log_rematch", { name: name(event.seat) }) }];
    case "said": // a phrase (not an event of the match: app.js puts it in the log)
      return [{ text: t("log_said", { name: name(event.seat), phrase: t(`phrase_${event.phrase}`) }) }];
    default:
      return [];
  }
}

// -- the page -------------------------------------------------------------------------

export function renderTable(app) {
  // A name is asked for to sit down, not to watch: said so, with the way to watch instead
  // (an invitation followed before a name was chosen said only "Choose your name first.").
  if (!app.authed && !app.player?.token && app.table.mode !== "watch") {
    const invited = Boolean(app.route.code);
    return [
      h(
        "div",
        { class: "panel sit-intro", id: "sit-intro" },
        h("p", {}, invited ? t("sit_invited") : t("sit_here")),
        h("a", { class: "button", href: watchHash(app.route.id ?? null, app.route.code ?? null), "data-key": "watch-nameless" }, t("watch_no_name")),
      ),
      nameForm(app),
    ];
  }
  const table = app.table;
  if (app.notice && !table.state && !table.info) {
    return h(
      "div",
      { class: "panel" },
      h("p", { class: "notice", role: "status", id: "table-notice" }, words(app.notice)),
      h(
        "div",
        { class: "row" },
        app.noticeWatch && h("a", { class: "button primary", href: app.noticeWatch, id: "watch-instead", "data-key": "watch-instead" }, t("watch")),
        h("a", { class: "button", href: "#/", "data-key": "to-lobby" }, t("new_match")),
      ),
    );
  }
  const state = table.state;
  const info = table.info;
  const me = table.seat ?? 0;
  const positions = seatPositions(info?.direction ?? "counter-clockwise", me);
  const turn = canAct(table);
  if (turn && table.announcedTurn !== table.v) {
    table.announcedTurn = table.v;
    announce(yourTurn(state));
  }
  const page = h(
    "section",
    {
      class: "table-page",
      id: "table",
      "aria-label": t("title"),
      "data-phase": state?.phase ?? "waiting",
      "data-turn": turn ? "mine" : "other",
      "data-v": table.v ?? 0,
    },
    h("h1", { class: "visually-hidden" }, t("title")),
    h("p", { class: "banner", id: "banner", tabindex: "-1", "data-key": "banner" }, bannerText(table)),
    h(
      "div",
      { class: "felt", "data-direction": info?.direction ?? "" },
      ["top", "left", "right"].map((pos) => seatBox(table, positions[pos], pos)),
      roundSummary(table),
      h("div", { class: "center" }, centerPanel(app, table, positions)),
      tableInfo(state),
      // While the connection is down nothing can be decided: said where the decision is made.
      state && !online()
        ? h("p", { class: "problem offline", id: "problem" }, t("offline_notice"))
        : h("p", { class: "problem", id: "problem" }, said(words(table.problem) ?? "")),
      seatBox(table, positions.bottom, "bottom"),
      handRow(table, turn),
      // The buttons after the hand in the page's order (the grid draws them above it): Tab
      // goes from the cards to pick to "Exchange", not from the buttons back to the cards.
      actionBar(table, turn),
      matchOver(app, table),
    ),
    toolbar(table, turn),
    // A notice shares the log's column, above it, and takes its height from the log: beside
    // the table, not above it, it never pushes the hand off a 1280x800 window (on a phone,
    // where the page scrolls anyway, it comes first, over the banner; style.css).
    h("div", { class: "side" }, tableNotice(app), tableFacts(table), logPanel(table)),
  );
  fillDialog(app);
  return page;
}

// What kind of table this is, for its players and its watchers alike: the rules, the way play
// goes round, the time a decision may take, and how many are watching (the page said none of
// it: a watcher, or a stream's audience, could not tell Classic from Table, and the players
// were never told they were watched).
function tableFacts(table) {
  const info = table.info;
  if (!info) return null;
  const parts = [
    `${t("rules_label")}: ${t(`rules_${info.rules}`)}`,
    t(info.direction === "clockwise" ? "facts_clockwise" : "facts_counter_clockwise"),
    ...clockAndWatchers(info),
  ];
  return h("p", { class: "table-facts", id: "table-facts" }, parts.join(" · "));
}

// An error the server sent outside a decision ("Error: …", the table gone): kept until the
// person dismisses it or leaves the page.
function tableNotice(app) {
  if (!app.notice) return null;
  return h(
    "div",
    { class: "notice table-notice", id: "notice" },
    h("p", { role: "status" }, words(app.notice)),
    h(
      "button",
      {
        type: "button",
        class: "dismiss",
        "data-key": "dismiss-notice",
        "aria-label": t("dismiss"),
        title: t("dismiss"),
        onclick: () => {
          app.notice = null;
          render();
        },
      },
      h("span", { "aria-hidden": "true" }, "×"),
    ),
  );
}

// A badge whose seconds count down to `due` (a performance.now() time), every second, in
// place: the page is not drawn again for it.
function countdown(className, due, key) {
  return h("span", { class: `${className} countdown`, "data-due": String(due), "data-text": key }, t(key, { s: secondsTo(due) }));
}

function secondsTo(due) {
  return Math.max(0, Math.ceil((due - performance.now()) / 1000));
}

function tickCountdowns() {
  for (const badge of document.querySelectorAll(".countdown")) badge.textContent = t(badge.dataset.text, { s: secondsTo(Number(badge.dataset.due)) });
}

setInterval(tickCountdowns, 1000);

function seatBox(table, seat, pos) {
  const state = table.state;
  const entry = table.info?.seats?.[seat];
  const acting = state && state.to_act === seat && ["trump", "exchange", "play"].includes(state.phase);
  const isMe = table.seat === seat;
  const badges = [];
  // When the seat's bot will play for its person (gone, or out of time at a table with a
  // clock): the server's count when it sent the table, counted down here (tickCountdowns).
  const due = entry?.bot_in != null && table.infoAt != null ? table.infoAt + entry.bot_in * 1000 : null;
  // Away, a bot playing for them: while the match is played (after it, nothing is played).
  if (entry?.away && table.info?.status === "playing") badges.push(h("span", { class: "badge warn" }, t("away")));
  // Gone to the rematch (the one who asked, or one who accepted): not offline, elsewhere.
  else if (entry?.kind === "person" && !entry.connected && entry.at_rematch) badges.push(h("span", { class: "badge" }, t("at_new_table")));
  else if (entry?.kind === "person" && !entry.connected && due !== null) badges.push(countdown("badge warn", due, "offline_bot_in"));
  else if (entry?.kind === "person" && !entry.connected) badges.push(h("span", { class: "badge warn" }, t("offline")));
  else if (entry?.kind === "person" && acting && due !== null) badges.push(countdown("badge clock", due, "time_left"));
  const name = `${seatName(table, seat)}${isMe ? ` ${t("you_suffix")}` : ""}`;
  const status = seatStatus(state, seat);
  return h(
    "div",
    {
      class: `seat pos-${pos}${acting ? " acting" : ""}${isMe ? " me" : ""}${state?.active?.[seat] === false ? " out" : ""}`,
      "data-seat": seat,
      "aria-label": `${name}${acting ? `, ${t("to_act")}` : ""}`,
      role: "group",
    },
    // The turn mark (style.css) runs with the name and the dealer chip sits on the box's
    // corner: neither takes a line of its own beside a long name (the seat beside the hand
    // grew taller than the hand, and the table than a 1280x800 window). "(you)" is not part
    // of the name: a name cut short to its two lines took "(you)" with it.
    h(
      "div",
      { class: "seat-head" },
      h(
        "span",
        { class: "seat-name" },
        h("span", { class: "name", title: name }, seatName(table, seat)),
        isMe && h("span", { class: "you" }, t("you_suffix")),
      ),
      badges,
    ),
    // Read as "Bot 2 (hard), score 3, exchanged 4, dealer": the score said with its word (it
    // was a bare "3"), the chip as "dealer" (an aria-label on a span without a role is not
    // read: it was "D"), after the rest; the commas and words are for the screen reader only.
    h(
      "div",
      { class: "seat-body" },
      h(
        "span",
        { class: "score", title: t("score") },
        h("span", { "aria-hidden": "true" }, state ? num(state.scores[seat]) : "—"),
        state && h("span", { class: "visually-hidden" }, `, ${t("seat_score", { n: num(state.scores[seat]) })}`),
      ),
      h("span", { class: "status" }, status && h("span", { class: "visually-hidden" }, ", "), status),
    ),
    state?.dealer === seat &&
      h(
        "span",
        { class: "chip", title: t("dealer") },
        h("span", { "aria-hidden": "true" }, "D"),
        h("span", { class: "visually-hidden" }, `, ${t("dealer")}`),
      ),
    // Who chose the trump this round (it leads the first trick, and in classic must play).
    state?.chooser === seat &&
      state.phase !== "match_over" &&
      h(
        "span",
        { class: "chip chooser-chip", title: t("chooser") },
        h("span", { "aria-hidden": "true" }, t("chooser_chip")),
        h("span", { class: "visually-hidden" }, `, ${t("chooser")}`),
      ),
    !isMe && state && backs(state.hand_sizes[seat]),
    table.bubbles[seat] && h("span", { class: "bubble", "data-phrase": table.bubbles[seat].phrase }, t(`phrase_${table.bubbles[seat].phrase}`)),
  );
}

function backs(count) {
  return h(
    "div",
    { class: "backs", "aria-label": count === 1 ? t("backs_1") : t("backs", { n: count }), role: "img" },
    Array.from({ length: count }, () => cardBack({ class: "card back mini" })),
  );
}

function seatStatus(state, seat) {
  if (!state) return "";
  const parts = [];
  const active = state.active[seat];
  if (active === false) parts.push(t("sitting_out"));
  else if (active === true && state.exchanged[seat] !== null) {
    parts.push(state.exchanged[seat] ? t("exchanged_n", { n: state.exchanged[seat] }) : t("kept_all"));
  } else if (state.phase === "exchange" && state.to_act === seat) parts.push(t("deciding"));
  if (active === true && (state.phase === "play" || state.phase === "deal" || state.phase === "match_over")) {
    const won = state.tricks_won[seat];
    parts.push(won === 1 ? t("trick_1") : t("tricks_n", { n: won }));
  }
  return parts.join(" · ");
}

function tableInfo(state) {
  if (!state) return null;
  return h(
    "div",
    { class: "table-info" },
    h(
      "div",
      { class: "trump-box", role: "group", "aria-label": `${t("trump")}: ${state.trump ? t(`suit_${state.trump}`) : t("no_trump_yet")}` },
      h("span", { class: "label" }, t("trump")),
      state.trump
        ? h("span", { class: `trump-suit ${"HD".includes(state.trump) ? "red" : "black"}`, "aria-hidden": "true" }, SUIT_SYMBOL[state.trump])
        : h("span", { class: "trump-none", "aria-hidden": "true" }, "?"),
      // Clubs count double: said where the trump is, all round long (it was said only in the
      // round's summary, once the points were lost).
      state.trump === "C" && h("span", { class: "double", title: t("double_help") }, "×2"),
      state.turned && turnedCard(state),
    ),
    h(
      "div",
      { class: "stock-box", role: "group", "aria-label": state.stock === 1 ? t("stock_1") : t("stock_n", { n: state.stock }) },
      h("span", { class: "label" }, t("stock")),
      state.stock ? cardBack({ class: "card back small" }) : null,
      h("span", { class: "count", "aria-hidden": "true" }, state.stock),
    ),
  );
}

// The card turned up as trump stays in the chooser's hand: once played into a trick (public)
// it is marked played, not shown as if still held. Discards are face down, so only the
// chooser's own state (its discards) can say it was discarded; every other page shows it as
// before.
function turnedCard(state) {
  const card = state.turned;
  const played = state.tricks.some((trick) => trick.cards.includes(card));
  const discarded = !played && Boolean(state.my_discards?.includes(card));
  const fate = played ? "played" : discarded ? "discarded" : null;
  const fateText = fate && t(`turned_${fate}`);
  return cardFace(card, {
    class: `small turned${fate ? " gone" : ""}`,
    label: [cardName(card), t("turned_up"), fateText].filter(Boolean).join(", "),
    title: fateText || null,
    "data-fate": fate,
  });
}

function centerPanel(app, table, positions) {
  return table.state ? trickArea(app, table, positions) : waitingPanel(table);
}

function waitingPanel(table) {
  const info = table.info;
  // "Waiting for players to sit down…" is the banner's: said once.
  if (!info) return h("p", { class: "waiting" });
  const link = info.invite ? `${location.origin}/#/join/${info.invite}` : `${location.origin}/#/table/${info.id}`;
  // A seat kept for someone (a rematch's) is not one to invite anyone else to.
  const open = info.seats.some((seat) => seat.kind === "open" && !seat.kept_for);
  return h(
    "div",
    { class: "waiting" },
    open && (table.seat !== null || !info.private) && invite(link),
    // Its creator may close it until its match begins: a table made for others, watched.
    closable(info) &&
      h("button", { type: "button", class: "close-table", "data-key": "close-table", disabled: !online(), onclick: closeTable }, t("close_table")),
  );
}

export function invite(link, label = t("invite_title")) {
  const input = h("input", { class: "invite-link", id: "invite-link", "data-key": "invite-link", readonly: true, value: link });
  const copy = h(
    "button",
    {
      type: "button",
      "data-key": "copy-invite",
      onclick: async (event) => {
        input.select();
        let copied;
        try {
          await navigator.clipboard.writeText(link);
          copied = true;
        } catch {
          // No Clipboard API outside a secure context (an http:// address on a home network,
          // where friends are invited most): the selected link is copied the older way. The
          // button said "Copied" there while nothing was.
          copied = document.execCommand("copy");
        }
        event.target.textContent = copied ? t("copied") : t("copy_by_hand");
      },
    },
    t("copy"),
  );
  return h("div", { class: "invite" }, h("label", { for: "invite-link" }, label), h("div", { class: "row" }, input, copy));
}

// The last round's score changes, shown from the next round's deal until its first trick (or
// "OK"). It takes the place of the trick, empty meanwhile (style.css): not shown while the
// round just over is still on the felt (its last trick, until the deal), it hides no card.
function roundSummary(table) {
  const state = table.state;
  const round = table.rounds[table.rounds.length - 1];
  if (!state || !round || state.phase === "match_over" || table.dismissedRound === round.round) return null;
  const fresh = state.round === round.round + 1 && state.tricks.length === 0;
  if (!fresh) return null;
  return h(
    "div",
    { class: "round-summary", id: "round-summary", role: "region", "aria-label": t("round_over", { n: round.round }) },
    h("h2", {}, said(`${t("round_over", { n: round.round })} · ${t("trump")} ${SUIT_SYMBOL[round.trump] ?? ""}${round.multiplier > 1 ? ` ×${round.multiplier}` : ""}`)),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col_player")), h("th", { scope: "col" }, t("col_tricks")), h("th", { scope: "col" }, t("delta")), h("th", { scope: "col" }, t("score")))),
      h(
        "tbody",
        {},
        round.deltas.map((delta, seat) =>
          h(
            "tr",
            {},
            h("th", { scope: "row", title: seatName(table, seat) }, seatName(table, seat)),
            h("td", {}, round.active[seat] ? round.tricks_won[seat] : t("sitting_out")),
            h("td", { class: delta < 0 ? "good" : delta > 0 ? "bad" : "" }, signed(delta)),
            h("td", {}, num(round.scores[seat])),
          ),
        ),
      ),
    ),
    h(
      "button",
      {
        type: "button",
        "data-key": "summary-ok",
        onclick: () => {
          table.dismissedRound = round.round;
          sessionStorage.setItem(dismissedKey(table.id), String(round.round));
          render();
        },
      },
      t("ok"),
    ),
  );
}

// A duration of style.css (`--hold-ms`: "900ms"), for the speed the page is shown at.
function cssMs(name) {
  return Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0;
}

function trickArea(app, table, positions) {
  const state = table.state;
  const now = performance.now();
  // The server starts the next trick, empty, with the card that ends one: the finished trick
  // stays on the table (its winner's card marked) until a card is played to the next, and,
  // with animations on, slides to its winner once held a moment.
  let index = state.tricks.length - 1;
  if (index > 0 && state.tricks[index].cards.length === 0 && state.tricks[index - 1].winner !== null) index -= 1;
  const trick = state.tricks[index];
  const done = trick && trick.winner !== null;
  const key = `${state.round}-${index}`;
  const moving = app.speed !== "off";
  const playMs = moving ? cssMs("--play-ms") : 0; // read once a drawing, not once a card
  // The page is drawn anew at every message: an animation goes on from when it began (a
  // negative delay), not from the start, nor is it cut short by the next drawing.
  let collect = "";
  let collectStyle = null;
  if (done && moving) {
    if (!table.collected.has(key)) table.collected.set(key, now);
    const elapsed = now - table.collected.get(key);
    if (elapsed >= cssMs("--hold-ms") + cssMs("--collect-ms")) collect = " gone";
    else {
      collect = ` collect-${positionOf(positions, trick.winner)}`;
      collectStyle = `--elapsed: ${Math.round(elapsed)}ms`;
    }
  }
  return h(
    "div",
    {
      class: `trick${done ? " done" : ""}${collect}`,
      id: "trick",
      role: "group",
      "aria-label": t("trick_area"),
      style: collectStyle,
    },
    trick?.cards.map((card, i) => {
      const seat = trick.seats[i];
      const pos = positionOf(positions, seat);
      const playKey = `${key}-${card}`;
      if (!table.seenPlays.has(playKey)) table.seenPlays.set(playKey, now);
      const entering = moving && now - table.seenPlays.get(playKey) < playMs;
      const enter = entering ? ` enter-${pos}` : "";
      const winner = done && trick.winner === seat;
      return cardFace(card, {
        class: `played slot-${pos}${enter}${winner ? " winner" : ""}`,
        label: `${seatName(table, seat)}: ${cardName(card)}${winner ? `, ${t("won_trick", { name: seatName(table, seat) })}` : ""}`,
        style: entering ? `--entered: ${Math.round(now - table.seenPlays.get(playKey))}ms` : null,
      });
    }),
  );
}

function bannerText(table) {
  const { state, info } = table;
  const prefix = table.mode === "watch" ? `${t("watching")} · ` : "";
  if (!state) return prefix + (info?.status === "open" || !info ? t("phase_waiting") : "");
  const round = `${t("round_n", { n: state.round })} · `;
  if (state.phase === "match_over") return prefix + t("match_over");
  if (state.phase === "deal") {
    // Between two rounds: the one just played is over (its last trick still on the felt).
    if (table.rounds[state.round - 1]) return prefix + t("round_over", { n: state.round });
    return prefix + round + t("phase_deal");
  }
  if (myTurn(table)) return round + yourTurn(state);
  const name = state.to_act === null ? "" : seatName(table, state.to_act);
  return prefix + round + t(`waiting_${state.phase}`, { name });
}

// What the person's turn is for: said in the status line and announced when it comes (a
// bare "Your turn" did not say whether to choose trump, exchange or play). The next trick,
// started empty by the card that ended one, is a lead.
function yourTurn(state) {
  if (state.phase === "trump") return t("your_trump");
  if (state.phase === "exchange") return t("your_exchange");
  const current = state.tricks[state.tricks.length - 1];
  return !current || current.winner !== null || current.cards.length === 0 ? t("your_lead") : t("your_play");
}

// -- decisions ------------------------------------------------------------------------

function actionBar(table, turn) {
  const state = table.state;
  if (!turn || !state) return h("div", { class: "actions", id: "actions" });
  const busy = Boolean(table.pending);
  if (state.phase === "trump") {
    return h(
      "div",
      { class: "actions", id: "actions", role: "group", "aria-label": t("your_trump") },
      state.legal
        .filter((choice) => choice !== "turn")
        .map((suit) =>
          h(
            "button",
            {
              type: "button",
              class: `suit-button ${"HD".includes(suit) ? "red" : "black"}`,
              "data-key": `trump-${suit}`,
              "data-action": `trump-${suit}`,
              disabled: busy,
              onclick: () => act(table, { kind: "trump", suit }),
            },
            h("span", { "aria-hidden": "true" }, SUIT_SYMBOL[suit]),
            " ",
            t(`suit_${suit}`),
          ),
        ),
      state.legal.includes("turn") &&
        h(
          "button",
          { type: "button", "data-key": "trump-turn", "data-action": "turn", disabled: busy, onclick: () => act(table, { kind: "turn" }) },
          t("turn_up"),
        ),
    );
  }
  if (state.phase === "exchange") {
    const { may_sit_out: maySitOut, must_play: mustPlay, min_discard: min, max_discard: max } = state.legal;
    const chosen = [...table.selected];
    const count = chosen.length;
    const canExchange = count > 0 && count >= min && count <= max;
    // The server's reason is the authority, in the page's language.
    const reason = maySitOut ? null : (mustPlay ? reasonText(mustPlay) : sitOutReason(table));
    return h(
      "div",
      { class: "actions", id: "actions", role: "group", "aria-label": t("your_exchange") },
      // Keeping the hand (none discarded) allowed: the help says so, not "(1–5)". Short, so
      // that it keeps to one line on a phone (the hand stays above the fold).
      h("p", { class: "help", id: "exchange-help" }, min === 0 ? t("pick_cards_or_keep", { max }) : t("pick_cards", { min, max })),
      // Not yet possible, not switched off: aria-disabled keeps it in the keyboard's way,
      // with what to do said (a disabled button was passed over, and its help never heard).
      h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-key": "exchange",
          "data-action": "exchange",
          disabled: busy,
          "aria-disabled": canExchange ? null : "true",
          "aria-describedby": "exchange-help",
          onclick: () => canExchange && act(table, { kind: "exchange", discard: sortCards(chosen) }),
        },
        t("exchange_n", { n: count }),
      ),
      min === 0 &&
        h(
          "button",
          { type: "button", "data-key": "keep", "data-action": "keep", disabled: busy, onclick: () => act(table, { kind: "exchange", discard: [] }) },
          t("keep"),
        ),
      h(
        "button",
        {
          type: "button",
          "data-key": "sit-out",
          "data-action": "sit-out",
          disabled: busy,
          "aria-disabled": maySitOut ? null : "true",
          "aria-describedby": reason ? "sit-out-reason" : null,
          onclick: () => maySitOut && act(table, { kind: "sit_out" }),
        },
        t("sit_out"),
      ),
      reason && h("p", { class: "reason", id: "sit-out-reason" }, t("cannot_sit_out", { reason })),
    );
  }
  return h("div", { class: "actions", id: "actions" });
}

// The usual reasons the rules keep this seat in the round (RULES.md 3.4), in the page's language.
function sitOutReason(table) {
  const { state, info } = table;
  const classic = info?.rules === "classic";
  if (state.trump === "H") return t("reason_hearts");
  if (state.sat_out_streaks[table.seat] >= 2) return t("reason_streak");
  if (classic && state.chooser === table.seat) return t("reason_chooser");
  if (classic && state.scores[table.seat] <= 5) return t("reason_score", { n: 5 });
  return "";
}

function handRow(table, turn) {
  const state = table.state;
  if (table.seat === null || !state?.hand) return null;
  const playing = turn && state.phase === "play";
  const exchanging = turn && state.phase === "exchange";
  // The cards picked to discard stay marked while nothing can be sent (the connection down,
  // the others' cards being shown): they went blank, and a player thought the choice lost.
  const choosing = myTurn(table) && state.phase === "exchange";
  return h(
    "div",
    { class: `hand${online() ? "" : " offline"}`, id: "hand", role: "group", "aria-label": t("hand") },
    state.hand.map((card) => {
      const legal = playing && state.legal.includes(card);
      const picked = choosing && table.selected.has(card);
      const trump = state.trump !== null && card.endsWith(state.trump);
      let label = cardName(card);
      if (trump) label += `, ${t("trump").toLowerCase()}`;
      if (playing) label += `, ${legal ? t("legal") : t("not_playable")}`;
      if (choosing) label += picked ? `, ${t("to_discard")}` : "";
      return cardFace(card, {
        tag: "button",
        type: "button",
        class: `in-hand${trump ? " trump-card" : ""}${legal ? " legal" : ""}${playing && !legal ? " dim" : ""}${picked ? " picked" : ""}`,
        label,
        "data-key": `hand-${card}`,
        "aria-disabled": (playing && !legal) || (!playing && !exchanging) ? "true" : null,
        "aria-pressed": choosing ? String(picked) : null,
        onclick: () => clickCard(table, card, turn),
      });
    }),
  );
}

function clickCard(table, card, turn) {
  const state = table.state;
  if (table.pending) return; // a decision on its way: a second press is not another
  if (!turn) {
    if (state.phase === "play" || state.phase === "exchange") showProblem(table, () => t("not_your_turn"));
    render();
    return;
  }
  if (state.phase === "exchange") {
    if (table.selected.has(card)) table.selected.delete(card);
    else table.selected.add(card);
    render();
  } else if (state.phase === "play") {
    // An illegal card is sent too: the server's reason ("must follow suit D") is the one shown.
    act(table, { kind: "play", card });
  }
}

// -- toolbar, dialogs and the log -------------------------------------------------------

// What a seated person may say (the server's protocol.PHRASES), and how often (its
// Settings.say_every): the buttons wait that long after one is said.
const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "oops", "bye"];
const SAY_EVERY_MS = 2000;

// A <details> of the table drawn again with every event stays as the person left it (the
// log closed at the next card under the finger that had opened it): open as `table[key]`
// says once the person has opened or closed it, else as `initially`.  A drawing replaced
// since fires its own toggle late: only the one on the page counts.  Its toggle event comes a
// task after the click, too: the one on the page (`selector`), opened or closed since it was
// drawn, says first (a bot's card drawn in between closed the list of phrases just opened).
function keptOpen(table, key, initially, selector) {
  const shown = document.querySelector(`#main ${selector}`);
  if (shown && shown.open !== (shown.dataset.drawnOpen === "true")) table[key] = shown.open;
  const open = table[key] ?? initially;
  return {
    open,
    "data-drawn-open": String(open),
    ontoggle: (event) => {
      if (event.target.isConnected) table[key] = event.target.open;
    },
  };
}

// The list of phrases closes at a click anywhere else, as a menu does.
document.addEventListener("click", (event) => {
  const menu = document.getElementById("phrases");
  if (menu?.open && !menu.contains(event.target)) menu.open = false;
});

// The list of phrases at the keyboard, as a menu: Escape closes it and puts the focus back on
// "Say" (it stayed open, Escape did nothing); the arrows, Home and End go from phrase to
// phrase (Tab does too); and the focus gone elsewhere (Tab past the last phrase) closes it, as
// a click elsewhere does.
function phrasesKeys(table, event) {
  const menu = event.currentTarget;
  if (!menu.open) return;
  if (event.key === "Escape") {
    event.preventDefault();
    event.stopPropagation();
    menu.open = false;
    table.phrasesOpen = false;
    menu.querySelector("summary").focus();
    return;
  }
  const phrases = [...menu.querySelectorAll(".phrase-list button:not(:disabled)")];
  const at = phrases.indexOf(document.activeElement);
  const next = {
    ArrowDown: phrases[(at + 1) % phrases.length],
    ArrowUp: phrases[at <= 0 ? phrases.length - 1 : at - 1],
    Home: phrases[0],
    End: phrases[phrases.length - 1],
  }[event.key];
  if (!next) return;
  event.preventDefault();
  next.focus();
}

function phrasesMenu(table) {
  const waiting = Date.now() - table.saidAt < SAY_EVERY_MS;
  return h(
    "details",
    {
      class: "phrases",
      id: "phrases",
      ...keptOpen(table, "phrasesOpen", false, "#phrases"),
      onkeydown: (event) => phrasesKeys(table, event),
      // Not when the focus is lost with a drawing replaced (no element to go to): the page
      // gives it back to the same phrase in the one drawn again.
      onfocusout: (event) => {
        const menu = event.currentTarget;
        if (menu.open && event.relatedTarget && !menu.contains(event.relatedTarget)) menu.open = false;
      },
    },
    h("summary", { class: "button", "data-key": "say" }, t("say")),
    h(
      "div",
      { class: "phrase-list", role: "group", "aria-label": t("say_label") },
      PHRASES.map((phrase) =>
        h(
          "button",
          {
            type: "button",
            "data-key": `say-${phrase}`,
            "data-phrase": phrase,
            disabled: waiting || !online(),
            onclick: () => {
              if (!send({ type: "say", phrase })) return;
              table.saidAt = Date.now();
              table.phrasesOpen = false;
              document.getElementById("phrases").open = false;
              setTimeout(render, SAY_EVERY_MS);
              render();
              // Said, the list closes and the focus goes back to "Say", as after Escape: the
              // phrase that had it is hidden in the closed list.
              document.querySelector("#phrases summary")?.focus();
            },
          },
          t(`phrase_${phrase}`),
        ),
      ),
    ),
  );
}

function toolbar(table, turn) {
  const seated = table.seat !== null;
  // A seat played by its bot (out of time, or gone and back on another connection) is the
  // person's again at their next decision; said, and a button to take it back at once.
  const away = seated && table.info?.seats?.[table.seat]?.away && table.info.status === "playing";
  // A hint is for a decision of the match: not before it, nor after it.
  const inMatch = Boolean(table.state) && table.state.phase !== "match_over";
  return h(
    "div",
    { class: "toolbar" },
    away && h("button", { type: "button", class: "primary", "data-key": "come-back", title: t("come_back_help"), disabled: !online(), onclick: comeBack }, t("come_back")),
    // Nothing to show before the match (a table waiting for its players).
    table.state && h("button", { type: "button", "data-key": "last-trick", onclick: () => openDialog(table, "last") }, t("last_trick")),
    table.state && h("button", { type: "button", "data-key": "scores", onclick: () => openDialog(table, "scores") }, t("scores")),
    seated &&
      inMatch &&
      h(
        "button",
        {
          type: "button",
          "data-key": "hint",
          disabled: !turn,
          onclick: () => {
            table.hint = { id: nextId("h"), v: table.v };
            send({ type: "hint", id: table.hint.id });
            openDialog(table, "hint");
          },
        },
        t("hint"),
      ),
    h(
      "button",
      {
        type: "button",
        "data-key": "leave",
        // During the match a bot takes the seat: ask first. Before it, or watching, just go.
        onclick: () => (seated && table.info?.status === "playing" && table.state?.phase !== "match_over" ? openDialog(table, "leave") : leave()),
      },
      t(seated ? "leave" : "stop_watching"),
    ),
    // Someone to talk to: not at a table of bots alone (the bots say nothing back).
    seated && table.info?.seats.some((entry, seat) => seat !== table.seat && entry.kind === "person") && phrasesMenu(table),
  );
}

function logPanel(table) {
  return h(
    "details",
    {
      class: "log",
      // Open beside a wide table, closed under a narrow one, until the person says otherwise.
      ...keptOpen(table, "logOpen", window.innerWidth > 900, "details.log"),
    },
    h("summary", { "data-key": "log" }, t("log")),
    h(
      "ol",
      { id: "log" },
      table.log
        .flatMap((event) => logLines(table, event))
        .reverse()
        .map((line) => h("li", { "data-cards": line.cards?.join(" ") ?? null }, said(line.text))),
    ),
  );
}

function openDialog(table, kind) {
  table.dialog = kind;
  // The page is drawn again while the dialog is open: focus goes back to the button by its
  // key, the element that was clicked may be gone.
  table.dialogOpener = document.activeElement?.dataset?.key ?? null;
  render();
  const dialog = document.getElementById("dialog");
  if (!dialog.open) dialog.showModal();
  // From its top, title first: a long dialog (the scores on a phone) would otherwise open
  // scrolled to its first button, at the bottom.
  dialog.scrollTop = 0;
  document.getElementById("dialog-title").focus();
}

function fillDialog(app) {
  const table = app.table;
  const dialog = document.getElementById("dialog");
  if (!dialog.dataset.bound) {
    dialog.dataset.bound = "yes";
    dialog.addEventListener("close", () => {
      app.table.dialog = null;
      const opener = app.table.dialogOpener;
      if (opener) document.querySelector(`[data-key="${CSS.escape(opener)}"]`)?.focus();
    });
  }
  if (!table.dialog) return;
  const body = document.getElementById("dialog-body");
  const title = document.getElementById("dialog-title");
  // Drawn again with the page: focus stays on the button it was on.
  const focused = body.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  document.getElementById("dialog-close").textContent = table.dialog === "leave" ? t("stay") : t("close");
  if (table.dialog === "leave") {
    title.textContent = t("leave_title");
    body.replaceChildren(
      h("p", {}, t("leave_confirm")),
      h(
        "button",
        {
          type: "button",
          class: "danger",
          id: "leave-confirm",
          "data-key": "leave-confirm",
          onclick: () => {
            document.getElementById("dialog").close();
            leave();
          },
        },
        t("leave"),
      ),
    );
  } else if (table.dialog === "last") {
    title.textContent = t("last_trick");
    body.replaceChildren(lastTrick(table));
  } else if (table.dialog === "scores") {
    title.textContent = t("scores");
    const names = [0, 1, 2, 3].map((seat) => seatName(table, seat));
    const rounds = table.rounds.filter(Boolean);
    body.replaceChildren(scoreTable(names, rounds), scoreChart(names, rounds));
  } else if (table.dialog === "hint") {
    title.textContent = t("hint_title");
    body.replaceChildren(hintList(table));
  }
  if (focused) body.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

function lastTrick(table) {
  const done = (table.state?.tricks ?? []).filter((trick) => trick.winner !== null);
  const trick = done[done.length - 1];
  if (trick) return trickList(table, trick);
  // None yet this round: the last one of the round before (how it ended), said to be so.
  const earlier = table.lastTrickEvent;
  if (!earlier || earlier.round >= (table.state?.round ?? 0)) return h("p", {}, t("no_last_trick"));
  return h("div", {}, h("p", { id: "last-trick-round" }, t("last_trick_of_round", { n: earlier.round })), trickList(table, earlier));
}

// A trick's cards, each with its seat's name, the winner's marked.
function trickList(table, trick) {
  return h(
    "ul",
    { class: "last-trick" },
    trick.cards.map((card, i) =>
      h(
        "li",
        { class: trick.seats[i] === trick.winner ? "winner" : "" },
        cardFace(card, { class: "small" }),
        h("span", {}, seatName(table, trick.seats[i])),
        trick.seats[i] === trick.winner && h("strong", { class: "took" }, t("took_it")),
      ),
    ),
  );
}

function hintList(table) {
  const hint = table.hint;
  if (!hint) return h("p", {}, "");
  if (hint.error) return h("p", {}, words(hint.error));
  if (!hint.options) return h("p", {}, t("hint_wait"));
  // The strong bot ranks by its own change against the others' mean (each option's
  // `ranking`): that figure first, as the order is by it, and the own change after.
  const options = hint.options.map((option) => ({
    option,
    rank: typeof option.ranking === "number" ? option.ranking : null,
    // "discard 2" only counts the cards the option names (the terminal leaves it out too).
    rest: /^discard \d+$/.test(option.note) ? "" : option.note,
    inWords: hintWords(option),
  }));
  const ranked = options.some((o) => o.rank !== null);
  return h(
    "div",
    {},
    h(
      "p",
      { class: "help hint-how" },
      t(ranked ? "hint_how_vs" : "hint_how_own"),
      options.some((o) => o.inWords) ? ` ${t("hint_how_words")}` : null,
    ),
    h(
      "ol",
      { class: "hints" },
      options.map(({ option, rank, rest, inWords }, i) =>
        h(
          "li",
          {},
          // Taken from here in one click while the turn is still the one the hint was for.
          myTurn(table) && hint.v === table.v && !table.pending
            ? h(
                "button",
                {
                  type: "button",
                  class: "hint-do",
                  "data-key": `hint-do-${i}`,
                  // Each says what it does ("Do this: Play Seven of Hearts"): a list of "Do
                  // this" buttons told a screen reader nothing.
                  "aria-label": `${t("hint_do")}: ${spoken(describeAction(option.action))}`,
                  onclick: () => {
                    document.getElementById("dialog").close();
                    act(table, option.action);
                  },
                },
                t("hint_do"),
              )
            : null,
          h("span", { class: "hint-action" }, said(describeAction(option.action))),
          // What the figures mean in a player's words (the tricks, the risk of none), when the
          // bot tells them; the figures follow, on a line of their own.
          inWords ? [h("span", {}, " — "), h("span", { class: "hint-words" }, inWords)] : null,
          h(
            "span",
            { class: inWords ? "hint-figures" : null },
            inWords ? null : h("span", {}, " — "),
            rank !== null
              ? [
                  h("strong", { class: "hint-rank" }, t("hint_vs", { d: expected(rank) })),
                  h("span", { class: "hint-own" }, ` · ${t("hint_own", { d: expected(option.expected_delta) })}`),
                ]
              : h("strong", { class: "hint-rank" }, t("hint_delta", { d: expected(option.expected_delta) })),
            rest ? h("small", {}, ` (${noteText(rest)})`) : null,
          ),
        ),
      ),
    ),
  );
}

// An option's tricks and risk of none in words ("about 1.6 tricks · 8% risk of taking none"),
// or null when the hint has not them (sitting out; a bot that does not tell).
function hintWords(option) {
  if (typeof option.tricks !== "number" || typeof option.no_trick !== "number") return null;
  if (option.no_trick >= 0.995) return t("hint_sure_none");
  const tricks = Math.abs(option.tricks - 1) < 0.05 ? t("hint_trick_one") : t("hint_tricks", { x: fixed(option.tricks, 1) });
  if (option.no_trick < 0.005) return tricks;
  return `${tricks} · ${t("hint_none", { p: percent(option.no_trick) })}`;
}

function describeAction(action) {
  switch (action.kind) {
    case "trump":
      return t("act_trump", { suit: suitText(action.suit) });
    case "turn":
      return t("act_turn");
    case "sit_out":
      return t("act_sit_out");
    case "exchange":
      return action.discard.length ? t("act_exchange", { cards: action.discard.map(cardText).join(" ") }) : t("act_keep");
    default:
      return t("act_play", { card: cardText(action.card) });
  }
}

function matchOver(app, table) {
  const state = table.state;
  if (!state || (state.phase !== "match_over" && !table.match)) return null;
  const event = table.match;
  const winners = event?.winners ?? state.scores.map((score, seat) => (score <= 0 ? seat : null)).filter((s) => s !== null);
  const matchId = table.info?.match_id;
  // Once the match is recorded (the table finished), a seated person may play the same table again.
  const again = table.seat !== null && table.info?.status === "finished";
  return h(
    "div",
    { class: "match-over", id: "match-over", role: "region", "aria-label": t("match_over") },
    h("h2", {}, t("match_over")),
    h("p", { class: "winners" }, t(winners.length === 1 ? "winner" : "winners", { names: winners.map((seat) => isolate(seatName(table, seat))).join(", ") })),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col_player")), h("th", { scope: "col" }, t("final_score")), event && h("th", { scope: "col" }, t("riscos")))),
      h(
        "tbody",
        {},
        // Your own row says "(you)", as your seat does: never cut short with a long name.
        state.scores.map((score, seat) =>
          h(
            "tr",
            { class: `${winners.includes(seat) ? "winner" : ""}${seat === table.seat ? " me" : ""}`.trim() },
            h(
              "th",
              { scope: "row", title: seatName(table, seat) },
              h(
                "span",
                { class: "row-name" },
                h("span", { class: "name" }, seatName(table, seat)),
                seat === table.seat && [" ", h("span", { class: "you" }, t("you_suffix"))],
              ),
            ),
            h("td", {}, num(score)),
            event && h("td", { class: event.riscos[seat] > 0 ? "good" : event.riscos[seat] < 0 ? "bad" : "" }, signed(event.riscos[seat])),
          ),
        ),
      ),
    ),
    table.rematch && h("p", { class: "rematch", id: "rematch-offer" }, t("rematch_offer", { name: seatName(table, table.rematch.seat) })),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", "data-key": "over-scores", onclick: () => openDialog(table, "scores") }, t("scores")),
      matchId && h("a", { class: "button", href: `#/replay/${matchId}`, "data-key": "replay-match" }, t("replay_match")),
      table.seat === null &&
        table.rematch &&
        h("a", { class: "button primary", href: watchHash(table.rematch.next, null), id: "watch-rematch", "data-key": "watch-rematch" }, t("watch_rematch")),
      again && h("button", { type: "button", class: "primary", id: "play-again", "data-key": "play-again", disabled: !online() || table.rematchAsked, onclick: () => { playAgain(table); render(); } }, t("play_again")),
      h("a", { class: again ? "button" : "button primary", href: "#/", id: "back-to-lobby", "data-key": "back-to-lobby" }, t("new_match")),
    ),
  );
}

// Where focus goes when the element that had it is gone: the decision due (the first trump,
// the first card to pick or play), else the status line, to wait there for the next one.
export function tableFocus(app) {
  const table = app.table;
  const first = (selector) => document.querySelector(selector);
  // Not between a decision's `ack` and the `update` that shows it: the turn is over already.
  if (canAct(table) && !table.pending && table.decidedAt !== table.v) {
    const phase = table.state.phase;
    const target =
      (phase === "trump" && first("#actions button:not(:disabled)")) ||
      (phase === "exchange" && first("#hand .card")) ||
      (phase === "play" && first("#hand .card.legal"));
    if (target) return target;
  }
  return first("#banner") ?? first("#table-notice");
}

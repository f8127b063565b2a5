// The lobby: your name, a quick match, a new table with open seats, the open tables and the
// leaderboard.

import { forgetPlayer, register, render, send, setCreated, watchHash } from "./app.js";
import { h } from "./cards.js";
import { fixed, isolate, num, playerName, t } from "./i18n.js";
import { words } from "./messages.js";
import { invite } from "./table.js";

const SEAT_CHOICES = ["you", "open", "easy", "hard", "expert"];
// The time a person has for each decision (the protocol's `clock`, in seconds; "" for none).
const CLOCK_CHOICES = ["", "30", "60", "120"];
// The leaderboards as last received (null before the first), and the visit of the lobby each
// was asked for: asked again at each visit, so a match finished meanwhile is counted (they
// were asked once, and showed the standings of the page's first visit until a reload).
const leaderboards = { people: null, bots: null };
const boardAsked = { people: null, bots: null };
// The lobby is drawn again whenever a message arrives: what the person has chosen so far is
// kept here, not in the form elements.
const choices = {
  name: null,
  quickRules: "classic",
  level: "hard",
  createRules: "classic",
  seats: ["you", "open", "easy", "easy"],
  clock: "",
  private: false,
};

export function nameForm(app) {
  const input = h("input", {
    id: "name",
    name: "name",
    "data-key": "name",
    autocomplete: "nickname",
    // No maxlength: it counts UTF-16 units, so it cut a name of emoji at half the server's 24
    // characters; a longer name is refused in words when it is sent (app.js, `register`).
    required: true,
    "aria-describedby": "name-help",
    value: choices.name ?? app.player?.name ?? "",
    oninput: (event) => {
      choices.name = event.target.value;
    },
  });
  return h(
    "form",
    {
      class: "panel name-form",
      id: "name-form",
      onsubmit: (event) => {
        event.preventDefault();
        register(input.value.trim());
      },
    },
    h("h2", {}, t("need_name")),
    h("label", { for: "name" }, t("your_name")),
    h("div", { class: "row" }, input, h("button", { type: "submit", class: "primary", "data-key": "register" }, t("register"))),
    h("p", { class: "help", id: "name-help" }, t("name_help")),
    app.lobby.pendingName &&
      app.connection.status !== "open" &&
      h("p", { class: "help", id: "name-waiting", role: "status" }, t("name_waiting")),
    app.lobby.nameError && h("p", { class: "problem", role: "alert" }, words(app.lobby.nameError)),
  );
}

function radios(name, options, key) {
  return h(
    "div",
    { class: "choices" },
    options.map(([value, label]) =>
      h(
        "label",
        {},
        h("input", {
          type: "radio",
          name,
          value,
          checked: value === choices[key],
          "data-key": `${key}-${value}`,
          onchange: () => {
            choices[key] = value;
          },
        }),
        " ",
        label,
      ),
    ),
  );
}

function fieldset(legend, ...children) {
  return h("fieldset", {}, h("legend", {}, legend), ...children);
}

const rulesChoices = () => [
  ["classic", t("rules_classic")],
  ["table", t("rules_table")],
];

// A request the server refused (too many tables…), shown in the panel that sent it.
function problem(app, panel) {
  const found = app.lobby.problem;
  return found?.panel === panel ? h("p", { class: "problem", role: "alert", id: `${panel}-problem` }, words(found.text)) : null;
}

function ask(app, panel, message) {
  // One table at a time: a second click (a double click on "Play now") before the server has
  // answered the first would start a second match, played by a bot in your name.
  if (app.lobby.busy) return;
  app.lobby.asked = panel;
  app.lobby.problem = null;
  setCreated(null);
  app.lobby.busy = send(message);
  render();
}

function quickPanel(app) {
  const form = h(
    "form",
    {
      class: "panel",
      id: "quick",
      "aria-labelledby": "quick-title",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(form);
        ask(app, "quick", { type: "quick", rules: data.get("rules"), level: data.get("level") });
      },
    },
    h("h2", { id: "quick-title" }, t("quick_title")),
    h("p", { class: "help" }, t("quick_help")),
    fieldset(t("rules_label"), radios("rules", rulesChoices(), "quickRules")),
    fieldset(
      t("level_label"),
      radios(
        "level",
        ["easy", "hard", "expert"].map((level) => [level, t(`level_${level}`)]),
        "level",
      ),
      // What each level is: nothing said so, and "Hard", the default, was a guess.
      h("p", { class: "help", id: "level-help" }, t("level_help")),
    ),
    h("button", { type: "submit", class: "primary", id: "play-now", "data-key": "play-now" }, t("play_now")),
    problem(app, "quick"),
  );
  return form;
}

function createPanel(app) {
  const form = h(
    "form",
    {
      class: "panel",
      id: "create",
      "aria-labelledby": "create-title",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(form);
        const seats = [0, 1, 2, 3].map((seat) => data.get(`seat${seat}`));
        const clock = data.get("clock") ? Number(data.get("clock")) : null;
        ask(app, "create", { type: "create", rules: data.get("rules"), seats, private: data.get("private") === "on", clock });
      },
    },
    h("h2", { id: "create-title" }, t("create_title")),
    fieldset(t("rules_label"), radios("rules", rulesChoices(), "createRules")),
    h(
      "div",
      { class: "seat-choices" },
      choices.seats.map((choice, seat) =>
        h(
          "label",
          {},
          t("seat_n", { n: seat + 1 }),
          h(
            "select",
            {
              name: `seat${seat}`,
              id: `seat${seat}`,
              "data-key": `seat${seat}`,
              onchange: (event) => {
                choices.seats[seat] = event.target.value;
              },
            },
            SEAT_CHOICES.map((value) => h("option", { value, selected: value === choice }, t(`seat_${value}`))),
          ),
        ),
      ),
    ),
    // Always shown, with a word on when it counts: the server keeps no clock at a table of
    // one person and bots (nobody waits there but the bots).
    h(
      "div",
      { class: "clock-choice" },
      h(
        "label",
        { for: "clock" },
        t("clock_label"),
        h(
          "select",
          {
            name: "clock",
            id: "clock",
            "data-key": "clock",
            "aria-describedby": "clock-help",
            onchange: (event) => {
              choices.clock = event.target.value;
            },
          },
          CLOCK_CHOICES.map((value) => h("option", { value, selected: value === choices.clock }, t(`clock_${value || "none"}`))),
        ),
      ),
      h("p", { class: "help", id: "clock-help" }, t("clock_help")),
    ),
    h(
      "label",
      { class: "check" },
      h("input", {
        type: "checkbox",
        name: "private",
        id: "private",
        "data-key": "private",
        checked: choices.private,
        onchange: (event) => {
          choices.private = event.target.checked;
        },
      }),
      " ",
      t("private_table"),
    ),
    h("button", { type: "submit", class: "primary", id: "create-table", "data-key": "create-table" }, t("create")),
    problem(app, "create"),
    app.lobby.created && createdLink(app.lobby.created),
  );
  return form;
}

// The table just made. With a seat for you the page goes to it (`joined`); without one, the
// link is for the people of its open seats, and the table may be watched meanwhile (a private
// one by its invitation). Four bots go to be watched at once (app.js, `created`).
function createdLink(table) {
  const link = table.invite ? `${location.origin}/#/join/${table.invite}` : `${location.origin}/#/table/${table.id}`;
  const mine = table.seats.some((seat) => seat.kind === "person");
  return h(
    "div",
    { class: "created", role: "status" },
    h("p", {}, mine ? t("created_link") : t("created_no_seat")),
    invite(link, mine ? t("invite_title") : t("invite_link")),
    !mine && h("a", { class: "button", href: watchHash(table.id, table.invite), "data-key": "watch-created" }, t("watch")),
  );
}

// The seats of a listed table, as a line: "Ana, open seat, Bot 1 (easy), kept for Rui".
function seatsLine(table) {
  return table.seats
    .map((seat) => (seat.name ? isolate(playerName(seat.name)) : seat.kept_for ? t("kept_seat", { name: seat.kept_for }) : t("open_seat")))
    .join(", ");
}

// The tables this player made that are open or in play, private ones too (the server's
// `yours`): a private table made for others had no way back once the lobby forgot its link,
// and it counted among the player's three until it closed by itself.
function yoursList(app) {
  const yours = app.lobby.yours ?? [];
  if (yours.length === 0) return null;
  const me = app.player?.name?.toLowerCase();
  return h(
    "div",
    { class: "yours", id: "yours" },
    h("h3", {}, t("yours_title")),
    h("p", { class: "help" }, t("yours_help")),
    h(
      "ul",
      { class: "table-list" },
      yours.map((table) => {
        const seated = table.seats.some((seat) => seat.kind === "person" && seat.name?.toLowerCase() === me);
        const code = table.invite ? `?code=${encodeURIComponent(table.invite)}` : "";
        return h(
          "li",
          { "data-table": table.id },
          h("div", {}, h("strong", {}, t(`rules_${table.rules}`)), ` · ${t(table.private ? "private" : "public")} · ${t(`status_${table.status}`)} · `, seatsLine(table)),
          h(
            "div",
            { class: "row" },
            seated
              ? h("a", { class: "button primary", href: `#/table/${table.id}${code}`, "data-key": `yours-back-${table.id}` }, t("back_to_this"))
              : h("a", { class: "button", href: watchHash(table.id, table.invite), "data-key": `yours-watch-${table.id}` }, t("watch")),
          ),
        );
      }),
    ),
  );
}

// The new tables where a seat is kept for this player (someone asked to play again after a
// match they left, or before they pressed "Play again"): the way back to it from the lobby.
function keptList(app) {
  const kept = app.lobby.kept ?? [];
  if (kept.length === 0) return null;
  return h(
    "div",
    { class: "yours", id: "kept" },
    h("h3", {}, t("kept_title")),
    h(
      "ul",
      { class: "table-list" },
      kept.map((table) => {
        const code = table.invite ? `?code=${encodeURIComponent(table.invite)}` : "";
        return h(
          "li",
          { "data-table": table.id },
          h("div", {}, h("strong", {}, t(`rules_${table.rules}`)), ` · ${t(`status_${table.status}`)} · `, seatsLine(table)),
          h("div", { class: "row" }, h("a", { class: "button primary", href: `#/table/${table.id}${code}`, "data-key": `kept-${table.id}` }, t("take_kept_seat"))),
        );
      }),
    ),
  );
}

// A table's time per decision and how many watch it, as its page and the lobby's list say them.
export function clockAndWatchers(info) {
  return [
    info.clock ? t("facts_clock", { s: info.clock }) : null,
    info.spectators ? t(info.spectators === 1 ? "facts_watching_1" : "facts_watching_n", { n: info.spectators }) : null,
  ].filter(Boolean);
}

function tablesPanel(app) {
  // A public table of one's own is under "Tables you made", not twice.
  const own = new Set([...(app.lobby.yours ?? []), ...(app.lobby.kept ?? [])].map((table) => table.id));
  const rows = app.lobby.tables.filter((table) => !own.has(table.id));
  return h(
    "section",
    { class: "panel", id: "tables", "aria-labelledby": "tables-title" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "tables-title" }, t("tables_title")),
      h("button", { type: "button", "data-key": "refresh", onclick: () => send({ type: "list" }) }, t("refresh")),
    ),
    keptList(app),
    yoursList(app),
    // Under the player's own tables, the others are headed apart (they read as more of one's own).
    own.size > 0 && h("h3", {}, t("others_title")),
    rows.length === 0
      ? h("p", { class: "help" }, own.size > 0 ? t("no_other_tables") : t("no_tables"))
      : h(
          "ul",
          { class: "table-list" },
          rows.map((table) => {
            // A seat kept for someone (a rematch's, for a while) is not one to take.
            const open = table.status === "open" && table.seats.some((seat) => seat.kind === "open" && !seat.kept_for);
            // A seat of yours (left during the match, or before it began): join it again.
            const me = app.player?.name?.toLowerCase();
            const mine = table.seats.some((seat) => seat.kind === "person" && seat.name?.toLowerCase() === me);
            return h(
              "li",
              { "data-table": table.id },
              h(
                "div",
                {},
                h("strong", {}, t(`rules_${table.rules}`)),
                ` · ${t(`status_${table.status}`)} · `,
                seatsLine(table),
                // What a table's page says of it too: its clock, and who watches it.
                clockAndWatchers(table).map((fact) => ` · ${fact}`),
              ),
              h(
                "div",
                { class: "row" },
                mine && h("a", { class: "button primary", href: `#/table/${table.id}`, "data-key": `back-${table.id}` }, t("back_to_this")),
                open && !mine && h("a", { class: "button primary", href: `#/table/${table.id}`, "data-key": `join-${table.id}` }, t("join")),
                !mine && h("a", { class: "button", href: `#/watch/${table.id}`, "data-key": `watch-${table.id}` }, t("watch")),
              ),
            );
          }),
        ),
  );
}

async function loadLeaderboard(app, among) {
  const response = await fetch(`/api/leaderboard?among=${among}`);
  leaderboards[among] = response.ok ? await response.json() : [];
  redrawPanel(app, "leaderboard");
}

// What comes in by itself (the open tables, the leaderboard) draws its own panel again, not
// the lobby: drawn anew, the table form's list of choices that the person had open closed
// under the pointer, and what they had half chosen lost its focus.
export function redrawPanel(app, id) {
  const old = document.getElementById(id);
  if (!old || app.route.page !== "lobby") {
    render();
    return;
  }
  const active = document.activeElement;
  const focused = old.contains(active) ? active.dataset?.key : null;
  const fresh = { tables: tablesPanel, leaderboard: leaderboardPanel, who: whoPanel }[id](app);
  old.replaceWith(fresh);
  if (focused) fresh.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
}

function leaderboardPanel(app) {
  // Until the person picks a tab, both boards are asked for: "With bots" is shown when no
  // match among people only is counted yet and some with bots are (three friends and a bot
  // found "Among people" empty, their match being under "With bots").
  const chosen = app.lobby.amongChosen;
  for (const board of chosen ? [app.lobby.among] : ["people", "bots"]) {
    if (boardAsked[board] !== app.route) {
      boardAsked[board] = app.route;
      loadLeaderboard(app, board);
    }
  }
  const peopleEmpty = leaderboards.people?.length === 0;
  const among = chosen ? app.lobby.among : peopleEmpty && leaderboards.bots?.length ? "bots" : "people";
  // Nothing said before the first standings come (nor while it is not known yet which board
  // to show); after that the last ones stay shown until the new ones come.
  const loading = leaderboards[among] === null || (!chosen && peopleEmpty && leaderboards.bots === null);
  const rows = leaderboards[among] ?? [];
  const tab = (value) =>
    h(
      "button",
      {
        type: "button",
        "aria-pressed": String(among === value),
        "data-key": `among-${value}`,
        onclick: () => {
          app.lobby.among = value;
          app.lobby.amongChosen = true;
          boardAsked[value] = null;
          render();
        },
      },
      t(`among_${value}`),
    );
  return h(
    "section",
    { class: "panel", id: "leaderboard", "aria-labelledby": "leaderboard-title" },
    h("div", { class: "panel-head" }, h("h2", { id: "leaderboard-title" }, t("leaderboard")), h("div", { class: "row" }, tab("people"), tab("bots"))),
    rows.length === 0
      ? h("p", { class: "help", id: "board-empty" }, loading ? "" : t(among === "people" ? "nobody_yet_people" : "nobody_yet"))
      : h(
          "div",
          { class: "board-scroll" },
          h(
            "table",
            { class: "board" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["col_player", "col_riscos", "col_played", "col_won", "col_rating"].map((key) =>
                  h("th", { scope: "col", class: key === "col_rating" ? "rating" : null }, t(key)),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              rows.map((row) =>
                h(
                  "tr",
                  {},
                  h("th", { scope: "row", title: playerName(row.player) }, playerName(row.player)),
                  h("td", {}, num(row.riscos)),
                  h("td", {}, row.played),
                  h("td", {}, row.won),
                  // To the tenth, right-aligned: the column lines up ("3.0" above "−3.3").
                  h("td", { class: "rating" }, fixed(row.rating, 1)),
                ),
              ),
            ),
          ),
        ),
    // The rating was a bare number that fell after a win: what it is, and why.
    rows.length > 0 && h("p", { class: "help", id: "board-help" }, t("board_help")),
  );
}

// The last table you sat at, as the server tells it (GET /api/tables/{id}, public tables
// only), asked at each visit of the lobby: its match may have finished while a bot played your
// seat. `null` while not known (a private table is never known: its button stays as it is).
const lastTable = { id: null, asked: null, info: null };

async function loadLastTable(app, id) {
  let info = null;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(id)}`);
    info = response.ok ? await response.json() : null;
  } catch {
    info = null; // not known: the button stays as it was
  }
  if (lastTable.id !== id) return;
  lastTable.info = info;
  redrawPanel(app, "who");
}

// The way back to your last table: "Back to your last table" while it may be played on;
// once its match is over, "See your last match" (the table shows its final scores, the
// replay and "Play again"); none for a table closed before its match began.
function backButton(app) {
  const back = localStorage.getItem("sobedesce.table");
  if (!back) return null;
  if (lastTable.id !== back || lastTable.asked !== app.route) {
    if (lastTable.id !== back) lastTable.info = null;
    lastTable.id = back;
    lastTable.asked = app.route;
    loadLastTable(app, back);
  }
  const status = lastTable.info?.status;
  if (status === "abandoned") return null;
  const over = status === "finished";
  return h(
    "a",
    { class: "button", href: `#/table/${back}`, "data-key": "back-to-table", id: "back-to-table", "data-over": over ? "true" : null },
    t(over ? "see_last_match" : "back_to_table"),
  );
}

function whoPanel(app) {
  return h(
    "div",
    { class: "panel who", id: "who" },
    h("p", { id: "playing-as" }, t("playing_as", { name: app.player.name })),
    backButton(app),
    forgetting ? forgetQuestion(app) : h("button", { type: "button", class: "link", "data-key": "other-name", onclick: askToForget }, t("other_name")),
  );
}

export function renderLobby(app) {
  const parts = [h("h1", { class: "page-title" }, t("title"), h("small", {}, t("tagline")))];
  if (app.notice) parts.push(h("p", { class: "notice", role: "status" }, words(app.notice)));
  if (!app.player?.token) {
    parts.push(nameForm(app));
  } else {
    parts.push(whoPanel(app), h("div", { class: "lobby-grid" }, quickPanel(app), createPanel(app)));
  }
  parts.push(h("div", { class: "lobby-grid" }, tablesPanel(app), leaderboardPanel(app)));
  return parts;
}

// Where focus goes when the element that had it is gone (the name form once registered).
export function lobbyFocus(app) {
  if (app.player?.token && forgetting) return document.getElementById("forget-no");
  return document.getElementById(app.player?.token ? "play-now" : "name");
}

// "Use another name" asks first: the token forgotten, the name is nobody's to take again (the
// server keeps it, with its ranking, for the person who held it), so one click lost them.
let forgetting = false;

function askToForget() {
  forgetting = true;
  render();
}

function forgetQuestion(app) {
  const name = playerName(app.player.name);
  const answer = (forget) => () => {
    forgetting = false;
    if (forget) forgetPlayer();
    else render();
  };
  return h(
    "div",
    { class: "forget", role: "group", "aria-labelledby": "forget-ask" },
    h("p", { id: "forget-ask" }, t("forget_ask", { name })),
    h("button", { type: "button", id: "forget-yes", "data-key": "forget-yes", onclick: answer(true) }, t("forget_yes", { name })),
    " ",
    h("button", { type: "button", class: "primary", id: "forget-no", "data-key": "forget-no", onclick: answer(false) }, t("forget_no", { name })),
  );
}

// The single-page app: routes, the one connection, and the table's state as the server sent
// it. The page keeps only what the server sent this seat (docs/protocol.md: a seat's view
// only), and exposes it as window.sobedesce.state so tests can check that it holds no more.

import { h, spoken } from "./cards.js";
import { language, setLanguage, t } from "./i18n.js";
import { lobbyFocus, redrawPanel, renderLobby } from "./lobby.js";
import { errorText, words } from "./messages.js";
import { Connection } from "./net.js";
import { renderHistory, renderReplay, replayFocus } from "./replay.js";
import { renderRules } from "./rules.js";
import { dismissedKey, logLines, myTurn, renderTable, tableFocus } from "./table.js";

// Pauses between messages shown, in ms; a finished trick waits as long as style.css holds
// it and slides it to its winner (--hold-ms + --collect-ms).
const SPEEDS = { off: { play: 0, trick: 0 }, normal: { play: 450, trick: 1200 }, slow: { play: 1000, trick: 2600 } };
// An update with more events than one decision makes is a catch-up (a reload, a return):
// it is shown at once, without pauses or announcements.
const CATCH_UP_EVENTS = 6;

const LOBBY_REFRESH_MS = 10_000;
const BUBBLE_MS = 4000; // how long a phrase stays by the seat that said it

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const app = {
  player: JSON.parse(localStorage.getItem("sobedesce.player") || "null"),
  authed: false,
  speed: localStorage.getItem("sobedesce.speed") || (reducedMotion ? "off" : "normal"),
  route: { page: "lobby" },
  // `created`: the table just made without a seat for you (setCreated). `among`: the
  // leaderboard's tab; `amongChosen`: picked by the person (else lobby.js picks the one shown).
  lobby: { tables: [], created: JSON.parse(sessionStorage.getItem("sobedesce.created") || "null"), nameError: null, pendingName: null, among: "people", amongChosen: false, asked: null, busy: false, problem: null },
  notice: null,
  // Where to watch a table the page could not join (a match begun without you): its hash.
  noticeWatch: null,
  // A notice for the page about to be shown (route() clears the notice of the page left).
  nextNotice: null,
  // A `leave` was sent: its `left` is the answer, not the table closing by itself.
  leaving: false,
  conn: null,
  connection: { status: "connecting", seconds: null },
  requests: 0,
};

// Everything about the table being shown; replaced as a whole when another table is joined.
function freshTable(id = null, mode = null) {
  return {
    id,
    mode, // "seat" or "watch"
    seat: null,
    info: null, // the last `table` message
    state: null, // the state on screen
    v: null, // the last event number received
    inbox: [],
    pumping: false,
    rounds: [], // `round` events, by round number
    match: null, // the `match` event
    code: null, // a private table's invitation, by which it is watched
    lastTrickEvent: null, // the last `trick` event: "Last trick" shows it until the next round has one
    log: [],
    pending: null,
    decidedAt: null, // the `v` of the last decision sent
    problem: null,
    selected: new Set(),
    hint: null,
    // The round whose summary was dismissed ("OK"): kept for the tab, so a reload does not
    // show it again (it came back, the person having read it).
    dismissedRound: Number(sessionStorage.getItem(dismissedKey(id))) || 0,
    announcedTurn: null,
    shownUntil: 0, // the next message waits till then (performance.now()): see pump
    wake: null, // ends that wait early (the person acted)
    unsaid: [], // events come before the table's names: said once they are known
    seenPlays: new Map(), // each card played -> when the page first drew it (performance.now())
    collected: new Map(), // each finished trick -> when the page first drew it finished
    bubbles: {}, // seat -> the phrase it said, shown by its seat for a moment
    saidAt: 0, // when this page last said a phrase (Date.now())
    phrasesOpen: null, // the list of phrases, opened or closed by the person (null: closed)
    logOpen: null, // the log, opened or closed by the person (null: as the width suits)
    rematch: null, // the `rematch` message: the same table again, once someone asked for it
    rematchAsked: false, // this page asked for it: it goes there as soon as it is made
  };
}
app.table = freshTable();

export function send(message) {
  return app.conn.send(message);
}

// The same table again after its match: ask for it, or (asked already, by anyone) take your
// seat there, as at any table (the seat you had; a private table's invitation with it).
export function playAgain(table) {
  if (!table.rematch) {
    table.rematchAsked = send({ type: "rematch" });
    return;
  }
  const { next, invite } = table.rematch;
  send({ type: "join", table: next, seat: table.seat, code: invite ?? undefined });
}

export function nextId(prefix) {
  app.requests += 1;
  return `${prefix}${app.requests}-${Date.now().toString(36)}`;
}

// One with no name yet may look on: the open tables listed, a table watched (the server
// answers `list` and `watch` before `hello`); a name is asked for only to sit down.
const nameless = () => !app.player?.token;

// Whether the server answers this page: with a name, once it is said; with none, at once
// (for what needs none).
const listed = () => app.authed || nameless();

// Whether the server hears this page now: the connection open and, with a name, the name
// said (a spectator with none was told "Not connected" all along).
export const online = () => app.connection.status === "open" && listed();

// Leave the table: before the match the seat opens again; during it a bot plays the seat
// until the person comes back (the lobby keeps offering the way back).
export function leave() {
  app.leaving = true;
  send({ type: "leave" });
}

// Take one's seat back from its bot (away: out of time, say) without waiting for one's turn.
export function comeBack() {
  sitDown();
}

// Close a table of one's own before its match begins (a table made for others, with no seat
// for its creator, is watched to be closed): everyone at it is sent back to the lobby.
export function closeTable() {
  send({ type: "close" });
}

// Whether the table is this player's to close: made by them, its match not begun.
export const closable = (info) => info?.status === "open" && app.player?.id != null && info.created_by === app.player.id;

// The live region is a log (index.html): each announcement is a line added after the last,
// never text replaced. Replaced, a line was lost before it was read: "Bot 3 plays A♣" (the
// card to answer) gave way to "Your turn" at once, a card completing a trick to its winner.
// Announcements made in the same moment (one update's events and the turn they bring) are
// said as one line: "Bot 3 plays A♣. Your turn".
const ANNOUNCE_KEEP = 20; // lines kept in the region (a removal is not read: aria-relevant)
const announcing = [];

// A problem with what the person did, shown under the felt and said once, when it comes
// (an alert drawn anew at every message was said again at each: four times for one card).
export function showProblem(table, problem) {
  table.problem = problem;
  announce(words(problem));
}

export function announce(text) {
  if (!text) return;
  announcing.push(text);
  if (announcing.length === 1) setTimeout(sayAnnounced, 0);
}

function sayAnnounced() {
  const region = document.getElementById("announce");
  const text = announcing.splice(0).join(". ");
  if (!text) return;
  region.append(h("p", {}, spoken(text)));
  while (region.childElementCount > ANNOUNCE_KEEP) region.firstElementChild.remove();
}

// Lines said in another language are not left to be read again in it (a switch of language).
export function clearAnnouncements() {
  announcing.splice(0);
  document.getElementById("announce").replaceChildren();
}

function navigate(hash) {
  if (location.hash !== hash) location.hash = hash;
  else route();
}

// -- routes ---------------------------------------------------------------------------

// The address of the table shown. A private table's plain address leads nobody else there
// (the server does not tell a private table from a finished one): a seated person, who
// knows its invitation, has it in the address bar, so that copying the address invites.
function tableHash(table) {
  if (table.seat === null) return watchHash(table.id, table.code);
  const invite = table.info?.id === table.id ? table.info.invite : null;
  return invite ? `#/table/${table.id}?code=${encodeURIComponent(invite)}` : `#/table/${table.id}`;
}

function showInvite() {
  const table = app.table;
  if (app.route.page !== "table" || table.seat === null || !table.id || !table.info?.invite) return;
  const hash = tableHash(table);
  if (location.hash !== hash) {
    history.replaceState(null, "", hash);
    app.route = parseHash();
  }
}

// A private table is watched by its invitation code, with or without its id.
export function watchHash(id, code) {
  const query = code ? `?code=${encodeURIComponent(code)}` : "";
  return id ? `#/watch/${id}${query}` : `#/watch${query}`;
}

function parseHash() {
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const params = new URLSearchParams(query);
  switch (parts[0]) {
    case "table":
      return parts[1] ? { page: "table", id: parts[1], code: params.get("code") } : { page: "lobby" };
    case "watch": {
      const code = params.get("code");
      return parts[1] || code ? { page: "table", id: parts[1] ?? null, watch: true, code } : { page: "lobby" };
    }
    case "join":
      return parts[1] ? { page: "table", code: parts[1] } : { page: "lobby" };
    case "rules":
      return { page: "rules" };
    case "history":
      return { page: "history" };
    case "replay":
      return parts[1] ? { page: "replay", id: parts[1] } : { page: "history" };
    default:
      return { page: "lobby" };
  }
}

function route() {
  app.route = parseHash();
  app.notice = app.nextNotice;
  app.nextNotice = null;
  app.noticeWatch = null;
  if (app.route.page === "table") enterTable();
  else if (app.route.page === "lobby" && listed()) send({ type: "list" });
  // A watcher who goes elsewhere (the lobby, the history, by the header's links) stops
  // watching: counted among the table's spectators still, it was sent every move. A seated
  // person keeps their seat, to come back to.
  if (app.route.page !== "table" && app.table.mode === "watch" && app.table.id && app.connection.status === "open") leave();
  render();
  document.getElementById("main").focus({ preventScroll: true });
}

function enterTable() {
  const { id, code, watch } = app.route;
  const same = id && id === app.table.id && app.table.mode === (watch ? "watch" : "seat");
  if (!same) {
    app.table = freshTable(id ?? null, watch ? "watch" : "seat");
    clearAnnouncements(); // another table's moves are not this one's
  }
  if (watch) app.table.code = code ?? null;
  if (app.authed || (watch && nameless())) sitDown();
}

// Join (or watch) the table of the route, from the last event seen when coming back.
function sitDown() {
  const table = app.table;
  const since = table.v ?? 0;
  if (table.mode === "watch") send({ type: "watch", table: table.id ?? undefined, code: table.code ?? undefined, since });
  else if (table.id) send({ type: "join", table: table.id, code: app.route.code ?? undefined, since });
  else send({ type: "join", code: app.route.code, since });
}

// -- the connection -------------------------------------------------------------------

function onOpen() {
  app.authed = false;
  // A decision sent on the old connection may never be answered: the update that comes
  // after joining again tells whether it was taken.
  app.table.pending = null;
  if (app.player?.token) send({ type: "hello", token: app.player.token });
  else if (app.lobby.pendingName) send({ type: "hello", name: app.lobby.pendingName });
  if (nameless() && !app.lobby.pendingName) {
    if (app.route.page === "table" && app.table.mode === "watch") sitDown();
    else if (app.route.page === "lobby") send({ type: "list" });
  }
  render();
}

const NAME_MAX = 24; // the server's tables.NAME_MAX

// A name chosen while the connection is not open (a slow start, a drop) is not lost: it
// waits for the connection and goes out from `onOpen`, until the server answers it.
export function register(name) {
  // The same name again before the server has answered (a double click): it would come back
  // "taken", by this very page, and the message would wait on the next name form.
  if (app.lobby.pendingName === name && app.connection.status === "open") return;
  app.lobby.nameError = null;
  // Counted as the server counts (characters, spaces run together, composed): a name pasted
  // past the message's 200 characters came back as a message the server could not read.
  if ([...name.split(/\s+/).join(" ").normalize("NFC")].length > NAME_MAX) {
    app.lobby.nameError = () => t("err_name_long", { n: NAME_MAX });
    render();
    return;
  }
  app.lobby.pendingName = name;
  send({ type: "hello", name });
  render();
}

// The table just made without a seat for you, shown in the lobby with its link: kept for the
// tab (sessionStorage), so a reload does not lose it. A private table's link was to be had
// nowhere else, and the table still counted among your three.
export function setCreated(table) {
  app.lobby.created = table;
  if (table) sessionStorage.setItem("sobedesce.created", JSON.stringify(table));
  else sessionStorage.removeItem("sobedesce.created");
}

export function forgetPlayer() {
  // The server takes no new name from a connection seated at a table: leave it first (during
  // a match a bot plays the seat, as after "Leave table").
  if (app.authed && app.table.id && app.table.seat !== null) leave();
  localStorage.removeItem("sobedesce.table");
  setCreated(null);
  app.player = null;
  app.authed = false;
  localStorage.removeItem("sobedesce.player");
  render();
}

const handlers = {
  welcome(message) {
    app.authed = true;
    app.lobby.pendingName = null;
    // The id tells the page which tables are its own to close (a table's `created_by`).
    if (message.token) app.player = { id: message.player.id, name: message.player.name, token: message.token };
    else app.player = { ...app.player, id: message.player.id, name: message.player.name };
    localStorage.setItem("sobedesce.player", JSON.stringify(app.player));
    if (app.route.page === "table") sitDown();
    else if (app.route.page === "lobby") send({ type: "list" });
    render();
  },
  said(message) {
    const table = app.table;
    if (message.table !== table.id) return;
    // In the log as an event of the table (written out in the language of the moment), and
    // by the seat for a moment.
    takeEvent(table, { kind: "said", seat: message.seat, phrase: message.phrase }, false);
    const shown = { phrase: message.phrase };
    table.bubbles[message.seat] = shown;
    setTimeout(() => {
      if (table.bubbles[message.seat] !== shown) return;
      delete table.bubbles[message.seat];
      if (app.table === table) render();
    }, BUBBLE_MS);
    render();
  },
  rematch(message) {
    const table = app.table;
    if (message.table !== table.id) return;
    const first = table.rematch === null;
    if (table.seat === null) {
      // A watcher is offered to watch the new table (it was told only who was there).
      table.rematch = message;
      render();
      return;
    }
    table.rematch = message;
    if (table.rematchAsked) {
      table.rematchAsked = false;
      playAgain(table);
      return;
    }
    if (first) takeEvent(table, { kind: "rematch", seat: message.seat }, false);
    render();
  },
  error(message) {
    const table = app.table;
    app.lobby.busy = false;
    const text = () => errorText(message);
    switch (message.code) {
      case "unauthorized":
        if (!app.authed) forgetPlayer();
        break;
      case "bad_name":
      case "name_taken":
      case "seated":
        app.lobby.nameError = text;
        app.lobby.pendingName = null;
        break;
      case "stale":
        break; // the update that came before it already brought the page up to date
      case "rate_limited":
        // Messages sent too fast were dropped: the page sends again what it still needs.
        if (message.retry_after === undefined) break;
        // Too many new names or tables from this address: said where it was asked.
        if (app.lobby.pendingName) {
          app.lobby.nameError = text;
          app.lobby.pendingName = null;
        } else if (app.route.page === "lobby" && app.lobby.asked) {
          app.lobby.problem = { panel: app.lobby.asked, text };
        } else {
          app.notice = text;
        }
        break;
      case "too_soon":
        // A phrase said again too soon (the buttons wait, so from another tab): said there.
        showProblem(table, text);
        break;
      case "not_seated":
        if (app.leaving) {
          // Left already (the table closed, or the match ended): nothing to tell.
          app.leaving = false;
          break;
        }
        app.notice = text;
        break;
      case "table_full":
      case "no_table":
      case "seat_taken":
        app.notice = text;
        // A match begun without you may be watched: a public one by anyone, a private one
        // by the invitation that would have seated you.
        if (message.code === "table_full" && app.route.page === "table" && /begun/.test(message.message)) {
          if (app.route.code) app.noticeWatch = watchHash(table.id, app.route.code);
          else if (table.id && !/private/.test(message.message)) app.noticeWatch = watchHash(table.id, null);
        }
        break;
      case "too_many_tables":
      case "bad_table":
        if (app.route.page === "lobby" && app.lobby.asked) app.lobby.problem = { panel: app.lobby.asked, text };
        else app.notice = text;
        break;
      default:
        if (message.id && message.id === table.pending) showProblem(table, text);
        else if (message.id && table.hint?.id === message.id) table.hint = { ...table.hint, error: text };
        else app.notice = () => t("error", { message: errorText(message) });
    }
    if (message.id && message.id === table.pending) table.pending = null;
    render();
  },
  created(message) {
    const table = message.table;
    app.lobby.asked = null;
    app.lobby.busy = false;
    // Four bots start at once: a match to watch (a private one by its invitation).
    if (table.seats.every((seat) => seat.kind === "bot")) {
      setCreated(null);
      navigate(watchHash(table.id, table.invite));
      return;
    }
    setCreated(table);
    // In the lists now (a public one among the tables, any among yours): asked at once, not
    // at the next refresh (10 s).
    send({ type: "list" });
    render();
  },
  joined(message) {
    app.lobby.asked = null;
    app.lobby.busy = false;
    // The table just made, with a seat for you: its link is on the table now, and the lobby
    // must not offer it again as news once the match is played or the table left.
    if (app.lobby.created?.id === message.table) setCreated(null);
    if (app.table.id !== message.table) {
      // Watched by its invitation alone, the table's id is learnt now: the code goes with it.
      const code = app.table.id === null ? app.table.code : null;
      app.table = freshTable(message.table, app.table.mode);
      app.table.code = code;
    }
    app.table.seat = message.seat;
    app.table.mode = message.seat === null ? "watch" : "seat";
    // The lobby leads back to a seat (a spectator has none to come back to).
    if (message.seat !== null) localStorage.setItem("sobedesce.table", message.table);
    const hash = tableHash(app.table);
    // From the lobby a new history entry, so Back returns there; otherwise the same place.
    if (app.route.page !== "table") history.pushState(null, "", hash);
    else if (location.hash !== hash) history.replaceState(null, "", hash);
    app.route = parseHash();
    render();
  },
  table(message) {
    if (message.table.id === app.table.id) takeInfo(message.table);
    showInvite();
    render();
  },
  snapshot(message) {
    if (message.table) takeInfo(message.table);
    showInvite();
    enqueue(message);
  },
  update(message) {
    enqueue(message);
  },
  ack(message) {
    if (message.id === app.table.pending) app.table.pending = null;
    render();
  },
  hint(message) {
    if (app.table.hint?.id === message.id) app.table.hint = { ...app.table.hint, options: message.options };
    render();
  },
  tables(message) {
    // Asked every 10 s: the same list again draws nothing again. The lobby drawn anew closed
    // a seat's list of choices the person had open, every 10 s.
    const yours = message.yours ?? [];
    const kept = message.kept ?? [];
    if (JSON.stringify(kept) !== JSON.stringify(app.lobby.kept ?? [])) {
      app.lobby.kept = kept;
      redrawPanel(app, "tables");
    }
    if (JSON.stringify(message.tables) === JSON.stringify(app.lobby.tables) && JSON.stringify(yours) === JSON.stringify(app.lobby.yours ?? [])) return;
    app.lobby.tables = message.tables;
    app.lobby.yours = yours;
    redrawPanel(app, "tables");
  },
  left(message) {
    const table = app.table;
    const closer = closable(table.info);
    const asked = app.leaving;
    app.leaving = false;
    // Left during a match: a bot plays the seat until the person comes back to it.
    const inPlay = table.seat !== null && table.info?.status === "playing" && table.state?.phase !== "match_over";
    if (!(asked && inPlay) && localStorage.getItem("sobedesce.table") === table.id) localStorage.removeItem("sobedesce.table");
    app.table = freshTable();
    // Closed by its creator (this player, or the one who made it), else, not asked, by the
    // server: an open table nobody came to.
    let notice = asked ? null : () => t("table_closed");
    if (message.reason === "closed") notice = closer ? () => t("table_closed_by_you") : () => t("table_closed_by_creator");
    if (app.route.page === "table") {
      app.nextNotice = notice;
      navigate("#/");
    } else {
      app.notice = notice ?? app.notice;
      render();
    }
  },
  pong() {},
};

function onMessage(message) {
  handlers[message.type]?.(message);
}

function onStatus(status, seconds) {
  // The page shows only whether the connection is open: from one wait to the next (a
  // countdown's seconds, a new attempt) the header says it and the page stays as it is, so
  // a click or a half-typed name is never lost to a page drawn again under it.
  const stillClosed = status !== "open" && app.connection.status !== "open";
  app.connection = { status, seconds };
  if (stillClosed) {
    renderHeader();
    exposeState();
    return;
  }
  if (status !== "open") {
    app.authed = false;
    app.lobby.busy = false; // a request in flight is lost with its connection
  }
  // The table shows whether decisions can be made now.
  render();
}

// -- the table's messages, shown one at a time ------------------------------------------

function enqueue(message) {
  const table = app.table;
  table.v = message.v;
  table.inbox.push(message);
  pump(table);
}

async function pump(table) {
  if (table.pumping) return;
  table.pumping = true;
  while (table.inbox.length && app.table === table) {
    // The pause after a message shown is kept whenever the next one comes: one that came
    // while a finished trick was held, or a moment after, would have swept it away.
    const wait = table.shownUntil - performance.now();
    if (wait > 0) {
      // Woken early when the person acts (table.js): they have seen what was held.
      await new Promise((resolve) => {
        table.wake = resolve;
        setTimeout(resolve, wait);
      });
      table.wake = null;
      continue;
    }
    const message = table.inbox.shift();
    const events = message.events ?? [];
    const catchUp = message.type === "snapshot" || events.length > CATCH_UP_EVENTS;
    for (const event of events) takeEvent(table, event, catchUp);
    // A snapshot replaces what came before: the log starts again from it.
    if (message.type === "snapshot") table.log = [];
    if (message.state !== undefined) takeState(table, message.state);
    table.shownUntil = performance.now() + (catchUp ? 0 : pauseAfter(events));
    // The last message waiting: drawn once, its decisions offered (drawn, then drawn again to
    // offer them, the page was drawn twice a message).
    if (!table.inbox.length) table.pumping = false;
    render();
    if (!table.pumping) return;
  }
  table.pumping = false;
  render();
}

function pauseAfter(events) {
  const speed = SPEEDS[app.speed] ?? SPEEDS.normal;
  const plays = events.filter((e) => e.kind === "play").length;
  const tricks = events.filter((e) => e.kind === "trick").length;
  return plays * speed.play + tricks * speed.trick;
}

function takeInfo(info) {
  app.table.info = info;
  app.table.infoAt = performance.now(); // when its seats' bot_in were counted
  const unsaid = app.table.unsaid.splice(0);
  if (unsaid.length) announce(unsaid.map((event) => logLines(app.table, event).map((line) => line.text).join(". ")).join(". "));
}

// The log keeps events, not text: they are written out when shown, with the names and the
// language of that moment.
function takeEvent(table, event, catchUp) {
  if (event.kind === "round") table.rounds[event.round - 1] = event;
  if (event.kind === "trick") table.lastTrickEvent = event;
  if (event.kind === "match") {
    table.match = event;
    if (localStorage.getItem("sobedesce.table") === table.id) localStorage.removeItem("sobedesce.table");
  }
  table.log.push(event);
  table.log = table.log.slice(-80);
  if (catchUp) return;
  // Said once the table's names are known: a reload's or a watcher's first events came before
  // the table's facts, and were said with "Seat 2" for the names.
  if (table.info) announce(logLines(table, event).map((line) => line.text).join(". "));
  else table.unsaid.push(event);
}

function takeState(table, state) {
  const before = table.state;
  table.state = state;
  if (state?.phase === "match_over" && localStorage.getItem("sobedesce.table") === table.id) localStorage.removeItem("sobedesce.table");
  table.problem = null;
  if (!state || before?.phase !== state.phase || before?.round !== state.round) table.selected.clear();
  if (state?.hand) for (const card of [...table.selected]) if (!state.hand.includes(card)) table.selected.delete(card);
  if (table.hint && table.hint.v !== table.v) table.hint = null;
}

// -- rendering ------------------------------------------------------------------------

// The page's state as the server sent it, for tests and the curious: never a card more.
function exposeState() {
  const table = app.table;
  window.sobedesce = {
    state: {
      state: table.state,
      table: table.info,
      seat: table.seat,
      v: table.v,
      connection: app.connection.status,
      player: app.player ? app.player.name : null,
    },
    drop: () => app.conn.drop(),
  };
}

export function render() {
  const main = document.getElementById("main");
  const active = document.activeElement;
  const hadFocus = Boolean(active) && active !== main && main.contains(active);
  const focused = active?.dataset?.key;
  // The caret (or selection) of a text field being typed in: the field drawn again got the
  // focus with its caret at the start, so a name typed as the connection opened came out
  // with its last letters first.
  const caret = focused && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd, active.selectionDirection] : null;
  renderHeader();
  main.dataset.page = app.route.page;
  const page = {
    lobby: renderLobby,
    table: renderTable,
    rules: renderRules,
    history: renderHistory,
    replay: renderReplay,
  }[app.route.page];
  const fresh = [].concat(page(app) ?? []);
  // At the table only, drawn at every move: elsewhere handlers may hold the elements they were
  // drawn with (the lobby's forms), which a kept element's twin would leave behind.
  const keep = app.route.page === "table" && hadFocus && focused && !caret;
  if (!(keep && graft(main, fresh, active, focused))) {
    main.replaceChildren(...fresh);
    if (focused) {
      const again = main.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      again?.focus({ preventScroll: true });
      if (caret && typeof again?.selectionStart === "number") again.setSelectionRange(...caret);
    }
  }
  keepFocus(main, hadFocus, focused);
  sayChanged(main);
  exposeState();
}

// What an element with `data-say` says (the replay's step) is announced when it changes, once:
// a live region drawn anew with its text in it was not read at all.
const lastSaid = new Map();

function sayChanged(main) {
  for (const element of main.querySelectorAll("[data-say]")) {
    const text = element.dataset.say;
    if (lastSaid.get(element.id) !== text) announce(text);
    lastSaid.set(element.id, text);
  }
}

// The element that has the focus is kept in place, with every element around it, when the page
// is drawn again, and everything else replaced by the new drawing: its twin's attributes,
// handlers and content are taken over. Drawn anew and focused again, it was said again by a
// screen reader at every message (402 focus events for 130 announcements in a match), which
// cut the moves' announcements short and pulled a reader's place back. False when the new
// drawing has no twin of it at the same depth (the caller then draws the page anew).
function graft(main, fresh, active, key) {
  const twin = fresh.flatMap((node) => (node instanceof Element ? [node.matches(`[data-key="${CSS.escape(key)}"]`) ? node : node.querySelector(`[data-key="${CSS.escape(key)}"]`)] : [])).find(Boolean);
  // A field keeps its own ways (its value, its caret): drawn anew as before.
  if (!twin || twin.tagName !== active.tagName || ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName)) return false;
  // Nor one that cannot keep the focus (a button disabled while its decision is sent): the
  // browser would let the focus drop to the page's body a moment later, unseen here.
  if (twin.closest("[disabled], [hidden], [inert]")) return false;
  const old = [];
  for (let node = active; node !== main; node = node.parentElement) old.push(node);
  const made = [];
  for (let node = twin; node; node = node.parentElement) made.push(node);
  if (old.length !== made.length || old.some((node, i) => node.tagName !== made[i].tagName)) return false;
  if (!fresh.includes(made[made.length - 1])) return false;
  // From the top down: each kept element's siblings are replaced by the new ones around its twin.
  let parent = main;
  let siblings = fresh;
  for (let i = old.length - 1; i >= 0; i--) {
    const keep = old[i];
    const twinAt = made[i];
    const at = siblings.indexOf(twinAt);
    for (const child of [...parent.childNodes]) if (child !== keep) child.remove();
    for (const node of siblings.slice(0, at)) parent.insertBefore(node, keep);
    for (const node of siblings.slice(at + 1)) parent.append(node);
    takeOver(keep, twinAt);
    parent = keep;
    siblings = [...twinAt.childNodes];
  }
  // The focused element's own content is the new one, whole.
  active.replaceChildren(...siblings);
  return true;
}

function takeOver(keep, twin) {
  for (const { name } of [...keep.attributes]) if (!twin.hasAttribute(name)) keep.removeAttribute(name);
  for (const { name, value } of [...twin.attributes]) if (keep.getAttribute(name) !== value) keep.setAttribute(name, value);
  for (const [type, handler] of keep.handlers ?? []) keep.removeEventListener(type, handler);
  for (const [type, handler] of twin.handlers ?? []) keep.addEventListener(type, handler);
  keep.handlers = twin.handlers ?? [];
}

// After a decision the element that had focus is often gone (a card played, the buttons of
// a phase over): focus goes to what comes next, never to the page's body. On the table it
// waits on the status line (or on the page, just opened) until the person is to act again.
function keepFocus(main, hadFocus, focused) {
  const now = document.activeElement;
  const lost = hadFocus && !main.contains(now);
  const parked = now?.dataset?.key === "banner" || (now === main && app.route.page === "table");
  // A replay opened (from a link, its record come) takes the focus on its section, named by
  // its title, where the arrow keys step through it: on the page's main they did nothing.
  if (now === main && app.route.page === "replay") {
    document.getElementById("replay")?.focus({ preventScroll: true });
    return;
  }
  if (!lost && !parked) return;
  const target = { lobby: lobbyFocus, table: tableFocus, replay: replayFocus }[app.route.page]?.(app, focused);
  if (target && target !== now) target.focus();
}

function renderHeader() {
  document.documentElement.lang = language();
  // The tab says when it is your turn: a person waiting in another tab (for others to sit
  // down, for the bots) saw "Sobe e Desce" whatever happened, and with a clock a bot played
  // for them.
  document.title = app.route.page === "table" && myTurn(app.table) ? `${t("title_your_turn")} · ${t("title")}` : t("title");
  // Every label of index.html in the page's language ("Main" stayed English in Portuguese).
  document.querySelector("header nav").setAttribute("aria-label", t("nav_label"));
  for (const link of document.querySelectorAll("[data-nav]")) {
    link.textContent = t(`nav_${link.dataset.nav}`);
    const current = link.dataset.nav === app.route.page || (link.dataset.nav === "history" && app.route.page === "replay");
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const lang = document.getElementById("lang");
  lang.textContent = t("lang_switch");
  lang.setAttribute("aria-label", t("lang_switch_label"));
  lang.setAttribute("lang", language() === "en" ? "pt" : "en");
  const speed = document.getElementById("speed");
  document.getElementById("speed-label").textContent = t("speed");
  // Its options are made again only when their words change (the language): replaced on every
  // drawing, as the table's events came in, an open list of them closed under the pointer.
  const words = Object.keys(SPEEDS).map((key) => t(`speed_${key}`));
  if ([...speed.options].map((option) => option.textContent).join("\n") !== words.join("\n")) {
    speed.replaceChildren(...Object.keys(SPEEDS).map((key, i) => h("option", { value: key }, words[i])));
  }
  speed.value = app.speed;
  document.documentElement.dataset.motion = app.speed;
  const conn = document.getElementById("conn");
  const { status, seconds } = app.connection;
  conn.dataset.status = status;
  if (status === "open") conn.textContent = t("conn_open");
  else if (status === "connecting") conn.textContent = t("conn_connecting");
  else conn.textContent = seconds ? t("conn_reconnect_in", { s: seconds }) : t("conn_reconnecting");
}

function start() {
  document.getElementById("lang").addEventListener("click", () => {
    setLanguage(language() === "en" ? "pt" : "en");
    // "Your turn" said in English stayed in the region after a switch to Portuguese: the
    // region is emptied, and the turn due said again in the new language (table.js).
    clearAnnouncements();
    app.table.announcedTurn = null;
    render();
  });
  document.getElementById("speed").addEventListener("change", (event) => {
    app.speed = event.target.value;
    localStorage.setItem("sobedesce.speed", app.speed);
    render();
  });
  window.addEventListener("hashchange", route);
  setInterval(() => {
    if (app.route.page === "lobby" && listed()) send({ type: "list" });
  }, LOBBY_REFRESH_MS);
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  app.conn = new Connection(`${scheme}//${location.host}/ws`, { onMessage, onOpen, onStatus });
  app.route = parseHash();
  if (app.route.page === "table") enterTable();
  app.conn.connect();
  render();
}

start();

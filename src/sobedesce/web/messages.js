// The server's words in the page's language: its errors by code, the rules' reasons (the
// engine's texts, sobedesce/core/game.py) and the hint's notes (the bots' texts) by pattern.
// Anything not known here is shown as the server wrote it.

import { cardText, suitText } from "./cards.js";
import { num, t } from "./i18n.js";

const CARDS = /^(?:[AKQJ2-7][SHDC] ?)+$/;
const cards = (text) => text.split(" ").map(cardText).join(" ");

// [pattern, (match) => text]: the first that matches words the reason.
const REASONS = [
  [/^must lead the Ace of trumps$/, () => t("why_lead_ace")],
  [/^must follow suit ([SHDC])$/, (m) => t("why_follow", { suit: suitText(m[1]) })],
  [/^must beat ([AKQJ2-7][SHDC]), the winning card$/, (m) => t("why_beat", { card: cardText(m[1]) })],
  [/^must trump: void in ([SHDC])$/, (m) => t("why_trump", { suit: suitText(m[1]) })],
  [/^must overtrump ([AKQJ2-7][SHDC])$/, (m) => t("why_overtrump", { card: cardText(m[1]) })],
  [/^must play a trump: void in ([SHDC])$/, (m) => t("why_trump_low", { suit: suitText(m[1]) })],
  [/^does not hold (.+)$/, (m) => (CARDS.test(m[1]) ? t("why_not_held", { cards: cards(m[1]) }) : null)],
  [/^must play: Hearts are trumps$/, () => t("reason_hearts")],
  [/^must play: sat out the \w+ previous rounds$/, () => t("reason_streak")],
  [/^must play: the chooser must play$/, () => t("reason_chooser")],
  [/^must play: a score of (\d+) or less must play$/, (m) => t("reason_score", { n: m[1] })],
  [/^may not sit out$/, () => t("why_no_sit_out")],
  [/^must discard at least (\d+) cards? to play$/, (m) => t("why_discard_least", { n: m[1] })],
  [/^must discard at most (\d+) cards? to play$/, (m) => t("why_discard_most", { n: m[1] })],
  [/^must discard exactly (\d+) cards? to play$/, (m) => t("why_discard_exactly", { n: m[1] })],
  [/^turning up is not allowed/, () => t("why_no_turn_up")],
  [/^the round is over$/, () => t("why_round_over")],
  [/^the match is over$/, () => t("why_match_over")],
  [/^cannot \w+ now: seat \d+ is to /, () => t("why_not_now")],
];

export function reasonText(reason) {
  for (const [pattern, word] of REASONS) {
    const match = pattern.exec(reason ?? "");
    const text = match && word(match);
    if (text) return text;
  }
  return reason;
}

const NAME_ERRORS = [
  [/may not be empty/, () => t("err_name_empty")],
  // Before the plain length: the server counts ß, İ and the like as two characters.
  [/at most (\d+) characters, and ß/, (m) => t("err_name_wide", { n: m[1] })],
  [/at most (\d+) characters/, (m) => t("err_name_long", { n: m[1] })],
  [/control characters/, () => t("err_name_control")],
  [/kept for the bots/, () => t("err_name_bot")],
  [/one alphabet: this one mixes (.*) letters$/, (m) => t("err_name_script", { scripts: m[1] })],
  // The plain name as Python quotes it: in '…', or in "…" when it holds a '.
  [/plain characters: this one reads as (['"])(.*)\1$/, (m) => t("err_name_plain", { plain: m[2] })],
];

// A message kept to be shown later (an error under the name, a notice, a problem) is kept as
// a function that words it, and worded when shown: in the page's language of that moment. Kept
// as text, it stayed in the language it came in after a switch of language.
export const words = (said) => (typeof said === "function" ? said() : said);

// An `error` message as a person reads it.
export function errorText({ code, message = "", retry_after: retryAfter }) {
  const found = (patterns) => {
    for (const [pattern, word] of patterns) {
      const match = pattern.exec(message);
      if (match) return word(match);
    }
    return null;
  };
  switch (code) {
    case "illegal":
      return t("not_allowed", { reason: reasonText(message) });
    case "bad_name":
      return found(NAME_ERRORS) ?? t("err_bad_name");
    case "name_taken":
      return t("err_name_taken");
    case "table_full": {
      if (/no seat is open/.test(message)) return t("table_no_seat");
      const kept = /kept for the players of the match before, for (\d+) s more/.exec(message);
      if (kept) return t("err_seats_kept", { n: Number(kept[1]) });
      return /private/.test(message) ? t("late_private") : t("late_public");
    }
    case "seat_taken": {
      const keptFor = /is kept for (.*), who sat there at the match before, for (\d+) s more/.exec(message);
      if (keptFor) return t("err_seat_kept", { name: keptFor[1], n: Number(keptFor[2]) });
      const mine = /already sit at seat (\d+)/.exec(message);
      return mine ? t("err_already_seated", { n: Number(mine[1]) + 1 }) : t("err_seat_taken");
    }
    case "no_table":
      return /invitation/.test(message) ? t("err_bad_invite") : t("table_gone");
    case "too_many_tables":
      return t("err_too_many_tables", { n: /you have (\d+) tables/.exec(message)?.[1] ?? 3 });
    case "seated":
      return t("err_seated");
    case "bad_table":
      return /one seat only/.test(message) ? t("err_one_seat") : message;
    case "not_your_turn":
      return t("not_your_turn");
    case "not_seated":
      return t("err_not_seated");
    case "not_creator":
      return t("err_not_creator");
    case "started":
      return t("err_started");
    case "too_soon":
      return t("err_too_soon");
    case "not_over":
      return t("err_not_over");
    case "not_started":
      return /match is over/.test(message) ? t("why_match_over") : message;
    case "unavailable":
      return /store/.test(message) ? t("err_store_down") : t("err_unavailable");
    case "rate_limited": {
      // The limit of new names or tables an address may make (a flood of messages is
      // answered without `retry_after`, and shows nothing: see app.js).
      const wait = retryAfter < 90 ? t("wait_seconds", { n: retryAfter }) : t("wait_minutes", { n: Math.ceil(retryAfter / 60) });
      if (/new players/.test(message)) return t("err_limit_players", { wait });
      if (/new tables/.test(message)) return t("err_limit_tables", { wait });
      return message;
    }
    default:
      return message;
  }
}

// A hint's note ("sit out: the score stays", "keep the best 3, expect 1.5 tricks"), part by
// part ("discard 4" is not shown: it only counts the cards its option names).
const NOTES = [
  [/^sit out: the score stays$/, () => t("note_sit_out")],
  [/^keep the best (\d+), expect (\d+(?:\.\d+)?) tricks$/, (m) => t("note_keep_best", { n: m[1], x: num(Number(m[2])) })],
];

export function noteText(note) {
  return note
    .split("; ")
    .map((part) => {
      for (const [pattern, word] of NOTES) {
        const match = pattern.exec(part);
        if (match) return word(match);
      }
      return part;
    })
    .join("; ");
}

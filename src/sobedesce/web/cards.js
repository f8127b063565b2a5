// Cards as the protocol writes them ("7H"), how they are named and drawn, and the two rules
// the replay viewer needs (who wins a trick, how a hand is sorted).

import { language, t } from "./i18n.js";

const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
// Strongest first: the order of the ranks within a suit.
const RANKS = ["A", "7", "K", "J", "Q", "6", "5", "4", "3", "2"];

const RANK_NAMES = {
  en: { A: "Ace", 7: "Seven", K: "King", J: "Jack", Q: "Queen", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" },
  pt: { A: "Ás", 7: "Sete", K: "Rei", J: "Valete", Q: "Dama", 6: "Seis", 5: "Cinco", 4: "Quatro", 3: "Três", 2: "Dois" },
};

const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];
const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";

export function cardName(card) {
  const joiner = language() === "pt" ? " de " : " of ";
  return RANK_NAMES[language()][rankOf(card)] + joiner + t(`suit_${suitOf(card)}`);
}

// The short form people read in logs: "7♥".
export const cardText = (card) => rankOf(card) + SUIT_SYMBOL[suitOf(card)];

export const suitText = (suit) => `${SUIT_SYMBOL[suit]} ${t(`suit_${suit}`)}`;

const SUIT_OF_SYMBOL = Object.fromEntries(Object.entries(SUIT_SYMBOL).map(([suit, symbol]) => [suit, symbol].reverse()));

// A text as it is to be heard: its cards and suits by name ("Bot 3 plays Ace of Clubs", not
// "A♣", whose "A" a screen reader says as the word; "Spades are trump", not "♠ Spades").
export function spoken(text) {
  return String(text ?? "")
    .replace(/([AKQJ2-7][♠♥♦♣]) (?=[AKQJ2-7][♠♥♦♣])/g, "$1, ")
    .replace(/([AKQJ2-7])([♠♥♦♣])/g, (_, rank, symbol) => cardName(rank + SUIT_OF_SYMBOL[symbol]))
    .replace(/[♠♥♦♣] (?=\p{L})/gu, "")
    .replace(/[♠♥♦♣]/g, (symbol) => t(`suit_${SUIT_OF_SYMBOL[symbol]}`));
}

// A text with cards or suits drawn as symbols, read by name: the symbols for the eye, the
// names for a screen reader. A text without any is itself.
export function said(text) {
  const heard = spoken(text);
  if (heard === String(text ?? "")) return heard;
  return [h("span", { "aria-hidden": "true" }, text), h("span", { class: "visually-hidden" }, heard)];
}

export function sortCards(cards) {
  const key = (c) => SUITS.indexOf(suitOf(c)) * 10 + RANKS.indexOf(rankOf(c));
  return [...cards].sort((a, b) => key(a) - key(b));
}

// The highest trump wins; without one, the highest card of the suit led.
export function trickWinner(cards, trump) {
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const card = cards[i];
    const top = cards[best];
    // Cards of another suit than the winning one can win only as the first trump.
    const beats =
      suitOf(card) === suitOf(top) ? RANKS.indexOf(rankOf(card)) < RANKS.indexOf(rankOf(top)) : suitOf(card) === trump;
    if (beats) best = i;
  }
  return best;
}

// A tiny element builder: h("button", {class: "x", onclick}, "text", child).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) {
      el.addEventListener(key.slice(2), value);
      // Kept, so that an element kept in place across drawings (app.js `graft`) takes the
      // handlers of the one drawn in its stead.
      (el.handlers ??= []).push([key.slice(2), value]);
    }
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// A face-up card. Every drawn card carries data-card, so what the page shows can be checked.
export function cardFace(card, { tag = "div", label = null, ...attrs } = {}) {
  const suit = SUIT_SYMBOL[suitOf(card)];
  return h(
    tag,
    {
      class: `card face ${isRed(card) ? "red" : "black"} ${attrs.class ?? ""}`.trim(),
      "data-card": card,
      "aria-label": label ?? cardName(card),
      role: tag === "div" ? "img" : null,
      ...Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== "class")),
    },
    h("span", { class: "corner", "aria-hidden": "true" }, h("b", {}, rankOf(card)), h("i", {}, suit)),
    h("span", { class: "pip", "aria-hidden": "true" }, suit),
  );
}

export function cardBack(attrs = {}) {
  return h("div", { class: "card back", "aria-hidden": "true", ...attrs });
}

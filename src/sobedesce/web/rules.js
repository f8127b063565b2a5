// "How to play": the project's rules (docs/rules.md) in English and Portuguese, both rule sets.

import { h } from "./cards.js";
import { language } from "./i18n.js";

// Static text written here, never from the network, so it may be given as HTML.
const RULES = {
  en: `
<h1>How to play Sobe e Desce</h1>
<p>A Portuguese trick-taking game for four players, each for themselves. Everyone starts at
<strong>20 points</strong>; the aim is to bring your own score <strong>down to 0</strong>.
There are two rule sets: <strong>classic</strong> (the default, from a Portuguese online site
with a ranking) and <strong>table</strong> (from a browser table's help page).</p>

<h2>The cards</h2>
<p>40 cards: a standard deck without 8s, 9s and 10s. Four suits: Spades ♠, Hearts ♥, Diamonds ♦,
Clubs ♣. Within a suit, from high to low: <strong>A 7 K J Q 6 5 4 3 2</strong> (the Seven, the
<em>bisca</em>, is second only to the Ace). Only tricks count, not card values.</p>

<h2>A round</h2>
<ol>
<li><strong>Deal.</strong> The seat after the dealer is the <em>chooser</em>. Everyone gets 3 cards,
the chooser first.</li>
<li><strong>Trump.</strong> Having seen their 3 cards, the chooser names any suit as trump, or
(classic only) <strong>turns up</strong> the next card they would receive: its suit is trump,
everyone sees it, and it stays in the chooser's hand.</li>
<li><strong>Second deal.</strong> 2 more cards each: everyone holds 5. The other 20 cards are the stock.</li>
<li><strong>Play or sit out.</strong> Starting with the chooser, each player either <strong>sits out</strong>
(takes no part in the round) or <strong>plays</strong>, discarding some cards face down and drawing as
many from the stock: 0 to 5 in classic, 1 to 5 in table. Everyone sees who sits out and how many
cards each exchanged, never which.
<br>A player <strong>must play</strong> when trump is Hearts; when they sat out the two previous
rounds; in classic also when they are the chooser, or when their score is 5 or less.</li>
<li><strong>Tricks.</strong> Five tricks, played by the active players only, in the order of play.
The chooser leads the first trick (or the next active player after them); the winner of a trick
leads the next. If only one player plays, they take all five tricks at once. If nobody plays
(table only), the round does not count.</li>
<li><strong>Scoring.</strong> Each active player who won tricks subtracts one point per trick; an
active player who won none <strong>adds 5</strong>. With Clubs as trump everything counts double.
A player who sat out scores nothing.</li>
<li><strong>End.</strong> After a round, if anyone is at 0 or below, the match ends: everyone at
0 or below wins, sharing the win.</li>
</ol>

<h2>Which card may be played</h2>
<p><strong>Leading:</strong> a leader who holds the Ace of trumps must lead it; otherwise any card.</p>
<p><strong>Following, classic:</strong> follow the suit led if you can (any card of it). If you
cannot, and you hold a trump that beats the winning card, you must play one. Otherwise, any card.</p>
<p><strong>Following, table:</strong> follow suit, else play a trump, else anything; and among those
cards, you must <strong>beat the winning card when you can</strong> (so a player with no card of the
suit led but with trumps must trump, overtrumping when able and undertrumping otherwise).</p>
<p>The highest trump wins the trick; without a trump, the highest card of the suit led.</p>

<h2>Riscos</h2>
<p>At the end of a match each loser loses as many <em>riscos</em> (ranking points) as their final score;
the winners share the sum. Final scores 0, 11, 2, 5 give +18, −11, −2, −5.</p>
`,
  pt: `
<h1>Como se joga o Sobe e Desce</h1>
<p>Um jogo português de vazas para quatro jogadores, cada um por si. Todos começam com
<strong>20 pontos</strong>; o objetivo é <strong>descer</strong> a sua pontuação <strong>até 0</strong>.
Há dois conjuntos de regras: as <strong>clássicas</strong> (as predefinidas, de um site português com
classificação) e as <strong>de mesa</strong> (da página de ajuda de um jogo no navegador).</p>

<h2>As cartas</h2>
<p>40 cartas: um baralho sem oitos, noves e dezes. Quatro naipes: Espadas ♠, Copas ♥, Ouros ♦,
Paus ♣. Em cada naipe, da mais alta à mais baixa: <strong>A 7 K J Q 6 5 4 3 2</strong> (o Sete, a
<em>bisca</em>, só perde para o Ás). Só contam as vazas, não o valor das cartas.</p>

<h2>Uma mão</h2>
<ol>
<li><strong>Dar.</strong> O jogador a seguir a quem dá é quem <em>escolhe o trunfo</em>. Todos recebem
3 cartas, começando por ele.</li>
<li><strong>Trunfo.</strong> Vistas as suas 3 cartas, escolhe qualquer naipe para trunfo ou (só nas
clássicas) <strong>vira</strong> a carta seguinte que receberia: o seu naipe é trunfo, todos a veem, e
ela fica na mão de quem a virou.</li>
<li><strong>Segunda volta.</strong> Mais 2 cartas a cada um: todos ficam com 5. As outras 20 formam o baralho.</li>
<li><strong>Jogar ou ficar de fora.</strong> A começar por quem escolheu o trunfo, cada um <strong>fica
de fora</strong> (não participa na mão) ou <strong>joga</strong>, descartando cartas viradas para baixo e tirando outras tantas
do baralho: de 0 a 5 nas clássicas, de 1 a 5 nas de mesa. Todos sabem quem fica de fora e quantas
cartas cada um trocou, mas nunca quais.
<br>É <strong>obrigatório jogar</strong> quando o trunfo é Copas; depois de ficar de fora nas duas mãos
anteriores; e nas clássicas também para quem escolheu o trunfo e para quem tem 5 pontos ou menos.</li>
<li><strong>Vazas.</strong> Cinco vazas, jogadas só por quem joga, pela ordem de jogo. Quem escolheu o
trunfo sai na primeira (ou o primeiro jogador ativo a seguir); quem ganha uma vaza sai na seguinte.
Se só um jogar, leva logo as cinco vazas. Se ninguém jogar (só nas de mesa), a mão não conta.</li>
<li><strong>Pontuação.</strong> Cada jogador ativo desconta um ponto por vaza ganha; quem jogou e não
ganhou nenhuma <strong>soma 5</strong>. Com trunfo de Paus tudo conta a dobrar. Quem ficou de fora não
pontua.</li>
<li><strong>Fim.</strong> Depois de uma mão, se alguém tiver 0 pontos ou menos, a partida acaba: ganham
todos os que estão em 0 ou abaixo.</li>
</ol>

<h2>Que carta se pode jogar</h2>
<p><strong>A sair:</strong> quem tem o Ás de trunfo tem de sair com ele; de resto, qualquer carta.</p>
<p><strong>Ao responder (clássicas):</strong> assiste-se ao naipe de saída se possível (com qualquer carta
dele). Quem não tem o naipe mas tem um trunfo que ganha à carta vencedora tem de jogar um desses
trunfos. De resto, qualquer carta.</p>
<p><strong>Ao responder (de mesa):</strong> assiste-se ao naipe; senão, trunfa-se; senão, qualquer carta; e
entre essas cartas é <strong>obrigatório ganhar à carta vencedora quando possível</strong> (quem não tem
o naipe mas tem trunfos tem de trunfar, por cima quando pode e por baixo quando não pode).</p>
<p>Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída.</p>

<h2>Riscos</h2>
<p>No fim da partida cada perdedor perde tantos <em>riscos</em> (pontos de classificação) como a sua
pontuação final; os vencedores repartem a soma. Pontuações finais 0, 11, 2, 5 dão +18, −11, −2, −5.</p>
`,
};

const DIFFERENCES = {
  en: {
    title: "The two rule sets side by side",
    head: ["Rule", "Classic (default)", "Table"],
    rows: [
      ["Seating (how the table is drawn; the order of play is the same)", "counter-clockwise", "clockwise"],
      ["Turn up the 13th card as trump", "allowed", "not allowed"],
      ["Cards exchanged by a player who plays", "0–5", "1–5"],
      ["The chooser must play", "yes", "no"],
      ["A score of 5 or less must play", "yes", "no"],
      ["At most two sit-outs in a row", "yes", "yes"],
      ["Hearts trump: everyone plays", "yes", "yes"],
      ["Following suit must beat the winning card when able", "no", "yes"],
      ["Void in the suit led, trumps too low: must still trump", "no (free)", "yes (undertrump)"],
      ["Clubs trump doubles gains and losses", "yes", "yes"],
      ["Start score, target", "20 → 0", "20 → 0"],
    ],
  },
  pt: {
    title: "As duas variantes lado a lado",
    head: ["Regra", "Clássicas (predefinidas)", "De mesa"],
    rows: [
      ["Sentido de jogo (só na disposição no ecrã)", "sentido anti-horário", "sentido horário"],
      ["Virar a 13.ª carta para trunfo", "permitido", "não permitido"],
      ["Cartas trocadas por quem joga", "0–5", "1–5"],
      ["Quem escolhe o trunfo tem de jogar", "sim", "não"],
      ["Com 5 pontos ou menos tem de jogar", "sim", "não"],
      ["No máximo duas mãos seguidas de fora", "sim", "sim"],
      ["Trunfo de Copas: todos jogam", "sim", "sim"],
      ["Quem assiste tem de ganhar à carta vencedora se puder", "não", "sim"],
      ["Sem o naipe e com trunfos baixos: ainda tem de trunfar", "não (livre)", "sim (por baixo)"],
      ["Trunfo de Paus dobra ganhos e perdas", "sim", "sim"],
      ["Pontos iniciais, objetivo", "20 → 0", "20 → 0"],
    ],
  },
};

export function renderRules() {
  const lang = language();
  const text = h("div", { class: "rules-text" });
  text.innerHTML = RULES[lang];
  const table = DIFFERENCES[lang];
  return h(
    "article",
    { class: "panel rules", id: "rules" },
    text,
    h("h2", {}, table.title),
    h(
      "table",
      { class: "differences" },
      h("thead", {}, h("tr", {}, table.head.map((cell) => h("th", { scope: "col" }, cell)))),
      h("tbody", {}, table.rows.map(([rule, ...cells]) => h("tr", {}, h("th", { scope: "row" }, rule), cells.map((cell) => h("td", {}, cell))))),
    ),
  );
}

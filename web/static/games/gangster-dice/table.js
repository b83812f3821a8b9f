/* Gangster Dice's table screen: the four tokens (who controls each, the dice on the Streets,
 * the Speakeasy and the Investigator), every player's stash, roll and cards in hand (their
 * number), the round's revealed bids with the scores worked out, the favor cards, whose turn,
 * the log, and the winners. It sees what the physical table shows: no hand, no bid before
 * the reveal. */
import { fill } from "../../js/dom.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { effectLine, favorBox, playersBox, revealBox, scoreTable, tokensBox } from "./parts.js";
import { words } from "./words.js";

export function start(page) {
  function render(pic, log) {
    const v = pic.view;
    showTurn(pic, words);
    fill("effect", effectLine(v));
    fill("tokens", tokensBox(v));
    fill("reveal", revealBox(v));
    fill("players", playersBox(v));
    fill("favor", favorBox(v));
    showLog(log);
    const over = document.getElementById("over");
    over.hidden = !pic.scores;
    if (pic.scores) fill("scores", v.end ? v.end + "." : "The host ended the game.", scoreTable(pic.scores, v));
  }

  // Every player rolls at once at a round's start: "Maria is rolling" toasts would only cover
  // the screen, and whose turn already says who the game waits for.
  new Live(`/api/games/${page.game}/events?as=table`, { picture: render }).connect();
}

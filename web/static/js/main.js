/* The one script every page loads (a module: no build step). It reads which page this is
 * from <body data-page> (and on a game's pages, which game from data-kind) and starts that
 * page's module with the body's data: the game id, the viewer's CSRF token, and so on.
 *
 * Everything a page shows comes from the server's picture for its viewer (the game's
 * player_view): no page guesses at anyone's dice.
 */
import { gameModule } from "./games.js";

const PAGES = {
  home: () => import("./pages/home.js"),
  host: () => import("./pages/host.js"),
  join: () => import("./pages/join.js"),
  pairing: () => import("./pages/pairing.js"),
};
const GAME_PAGES = ["table", "play", "end"];

function pageModule(page) {
  if (PAGES[page.page]) return PAGES[page.page]();
  if (GAME_PAGES.includes(page.page)) return gameModule(page.kind, page.page);
  return null;  // a message page: nothing to run
}

const page = document.body.dataset;
const loading = pageModule(page);
if (loading) loading.then((module) => module.start(page));

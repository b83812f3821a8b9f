/* The games with views of their own. A game's pages (table, play, end) and its words (for
 * the pages every game shares, such as the host's) come from its folder under
 * /static/games/; a game not listed here is shown by the generic view, from its pictures
 * alone. The paths are literal so that the JS check can see every one resolves. */
const OWN = {
  "new-don": {
    table: () => import("../games/new-don/table.js"),
    play: () => import("../games/new-don/play.js"),
    end: () => import("../games/new-don/end.js"),
    words: () => import("../games/new-don/words.js"),
  },
  "cash-n-guns": {
    table: () => import("../games/cash-n-guns/table.js"),
    play: () => import("../games/cash-n-guns/play.js"),
    end: () => import("../games/cash-n-guns/end.js"),
    words: () => import("../games/cash-n-guns/words.js"),
  },
};

/* The module for `part` of the game `kind`: a page ("table", "play", "end"; it exports
 * `start(page)`) or "words" (it exports `words`, see shell.js). */
export function gameModule(kind, part) {
  const own = OWN[kind] && OWN[kind][part];
  return own ? own() : import("../games/generic.js");
}

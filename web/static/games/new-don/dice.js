/* A New Don's dice as its pages draw them. */
import { dieFace } from "../../js/dice.js";

/* A die with A New Don's marks: red (a Vegas die), sets only (dashed), the imaginary extra
 * die of favor 5 (faded). */
export function donDie(face, { owner = null, small = false, red = false, setsOnly = false, extra = false, selected = false } = {}) {
  return dieFace(face, { owner, classes: [small && "small", red && "red", setsOnly && "sets-only", extra && "extra", selected && "selected"] });
}

/* Where each of my dice came from, as far as the view says: red Vegas dice I locked, dice a
 * player handed me as Godfather, the extra die of favor 5, dice usable for sets only. */
export function diceWithOrigins(me) {
  const locked = [...(me.locked || [])];
  const collected = [...(me.collected || [])];
  return (me.dice || []).map((d) => {
    let origin = "rolled";
    const li = locked.indexOf(d.face);
    const ci = collected.indexOf(d.face);
    if (d.imaginary) origin = "extra die";
    else if (li >= 0) { origin = "Vegas (locked)"; locked.splice(li, 1); }
    else if (ci >= 0) { origin = "handed over"; collected.splice(ci, 1); }
    if (d.sets_only) origin += ", sets only";
    return { ...d, origin, red: origin.startsWith("Vegas") };
  });
}

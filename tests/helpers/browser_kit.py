"""What the Chromium tests of every game's pages share: a phone's browser context, and a script
that records every event a page's stream delivers (to check later that each page received
only its own view)."""

from __future__ import annotations

from typing import Any

# A phone-sized browser context (new_context(**PHONE)).
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# add_init_script(RECORD_SSE): every "view" and "update" event lands in window.__sse.
RECORD_SSE = """
(() => {
  window.__sse = [];
  const Real = window.EventSource;
  function Recording(url, opts) {
    const es = new Real(url, opts);
    for (const type of ["view", "update"]) {
      es.addEventListener(type, (e) => window.__sse.push({event: type, id: e.lastEventId,
                                                          data: e.data}));
    }
    return es;
  }
  Recording.prototype = Real.prototype;
  window.EventSource = Recording;
})();
"""

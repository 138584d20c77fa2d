// The served dashboard's own script (the policy allows no inline one): the page's title follows the host,
// counting the sessions waiting for input and the approvals waiting for the operator; the terminal takes the
// keyboard at once, as a terminal window does (else the dashboard starts blurred, its keys nowhere); the
// buttons open the dashboard again.
"use strict";

window.addEventListener("DOMContentLoaded", () => {
  const title = new EventSource("/title");
  title.onmessage = (event) => { document.title = event.data; };
  for (const button of document.querySelectorAll(".restart")) {
    button.addEventListener("click", () => {
      const url = new URL(window.location.href);
      url.searchParams.delete("delay");
      window.location.href = url.pathname + url.search;
    });
  }
});

// The dashboard hears of the focus only once its socket is open, which the first bytes from it prove.
const focusOnce = new MutationObserver(() => {
  const keys = document.querySelector(".xterm-helper-textarea");
  if (keys && document.body.classList.contains("-first-byte")) {
    focusOnce.disconnect();
    keys.blur();
    keys.focus();
  }
});
window.addEventListener("DOMContentLoaded", () => {
  focusOnce.observe(document.body, { attributes: true, attributeFilter: ["class"] });
});

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

// A dashboard that failed (no host answered, it crashed) left its last words: they replace the plain
// "closed" message. The page's dashboard is named by the ticket ending its WebSocket's address.
const closedOnce = new MutationObserver(async () => {
  if (!document.body.classList.contains("-closed")) return;
  closedOnce.disconnect();
  const address = document.querySelector("#terminal").dataset.sessionWebsocketUrl;
  const ticket = address.slice(address.lastIndexOf("/") + 1);
  const answer = await fetch(`/why/${encodeURIComponent(ticket)}`);
  if (answer.status === 200) {
    document.querySelector(".closed-dialog .message").textContent = await answer.text();
  }
});
window.addEventListener("DOMContentLoaded", () => {
  closedOnce.observe(document.body, { attributes: true, attributeFilter: ["class"] });
});

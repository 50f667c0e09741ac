// Viva's own script: keyboard shortcuts and focus after htmx swaps. No inline script
// anywhere (the CSP forbids it); everything works without this file, it only adds keys.
//   /            focus the search box
//   Ctrl+Enter   submit the answer being typed
//   r / m        "I was right" / "I missed it" on the marking page
//   n, s         next question / skip (any element with data-key="n" or "s")
//   ?            show the shortcuts
// Also: a refused htmx request (4xx/5xx) shows the server's reason next to its control,
// and every answer box counts its characters against the limit.
// Spoken answers: a record / stop button with a timer (MediaRecorder), and uploads with
// progress, for every answer form with a [data-speak] fieldset. Without this file the
// same fieldset still works: a file input and a "Transcribe it" button post the form.
// On a team server the upload answers with a queued job: its place in the queue, then its
// progress, are polled from /api/v1/transcriptions/{id} until the transcript is ready.
(function () {
  "use strict";

  function typing(el) {
    return el && (el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.tagName === "SELECT" || el.isContentEditable);
  }

  function focusLanding() {
    var target = document.querySelector("[data-autofocus]") || document.querySelector("[autofocus]");
    if (target) { target.focus({ preventScroll: false }); }
  }

  function showShortcuts() {
    var box = document.getElementById("shortcuts");
    if (!box) {
      box = document.createElement("dialog");
      box.id = "shortcuts";
      box.setAttribute("aria-label", "Keyboard shortcuts");
      var rows = [["/", "search"], ["Ctrl+Enter", "submit your answer"], ["R", "I was right"],
                  ["M", "I missed it"], ["N", "next question"], ["S", "skip"], ["Esc", "close"]];
      var list = document.createElement("dl");
      rows.forEach(function (row) {
        var dt = document.createElement("dt"); var k = document.createElement("kbd");
        k.textContent = row[0]; dt.appendChild(k);
        var dd = document.createElement("dd"); dd.textContent = row[1];
        list.appendChild(dt); list.appendChild(dd);
      });
      var head = document.createElement("div"); head.className = "dialog-head";
      var h = document.createElement("h2"); h.textContent = "Keyboard shortcuts";
      var close = document.createElement("button");
      close.type = "button"; close.className = "small"; close.textContent = "Close";
      close.addEventListener("click", function () { box.close(); });
      head.appendChild(h); head.appendChild(close);
      box.appendChild(head); box.appendChild(list);
      document.body.appendChild(box);
    }
    if (typeof box.showModal === "function") { box.showModal(); }
  }

  document.addEventListener("keydown", function (event) {
    var el = document.activeElement;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && el && el.tagName === "TEXTAREA") {
      var form = el.closest("form");
      if (form) { event.preventDefault(); form.requestSubmit(); }
      return;
    }
    if (typing(el) || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "/") {
      var search = document.getElementById("site-search");
      if (search) { event.preventDefault(); search.focus(); }
      return;
    }
    if (event.key === "?") { showShortcuts(); return; }
    var key = event.key.toLowerCase();
    var target = document.querySelector('[data-key="' + key + '"]');
    if (target && key.length === 1) { event.preventDefault(); target.click(); }
  });

  document.addEventListener("DOMContentLoaded", focusLanding);
  // After a boosted navigation, move focus to the new content for keyboard and screen-reader users.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.boosted) { focusLanding(); }
  });

  // -- refused requests and the answer counter ----------------------------------------
  // htmx does not swap 4xx/5xx answers, so without this a refused click looks dead. The
  // reason is taken from the page the server sent (the answer form's problem line, or the
  // error page's message and hint) and shown next to the control that made the request.

  function reasonIn(xhr) {
    var text = xhr.responseText || "";
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("json") !== -1) {
      try { var body = JSON.parse(text); if (body && body.error) { return String(body.error); } } catch (e) { /* not JSON after all */ }
    }
    if (type.indexOf("html") !== -1) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var line = doc.querySelector(".problem");
      if (line && line.textContent.trim()) { return line.textContent.trim(); }
      var error = doc.querySelector(".error");
      if (error) {
        var parts = Array.prototype.filter.call(error.querySelectorAll("p, li"), function (p) { return !p.querySelector("a"); })
          .map(function (p) { return p.textContent.trim(); }).filter(Boolean);
        if (parts.length) { return parts.join(" "); }
      }
    } else if (text && text.length < 200) {
      return text.trim();
    }
    return "";
  }

  function showProblem(elt, message) {
    if (!elt || !elt.isConnected) { elt = document.querySelector("main") || document.body; }
    var form = elt.tagName === "FORM" ? elt : elt.closest("form");
    var box = form && form.querySelector("textarea");
    var line = form ? form.querySelector(".problem") : null;
    if (!line && elt.nextElementSibling && elt.nextElementSibling.hasAttribute("data-problem")) { line = elt.nextElementSibling; }
    if (!line) {
      line = document.createElement("p");
      line.className = "problem";
      line.setAttribute("data-problem", "");
      line.id = "problem-" + Math.random().toString(36).slice(2, 10);
      var after = box ? (form.querySelector("[data-counter]") || box) : elt;
      if (after === document.body || after.tagName === "MAIN") { after.insertBefore(line, after.firstChild); } else { after.insertAdjacentElement("afterend", line); }
    }
    line.setAttribute("role", "alert");
    line.textContent = message;
    if (box) {
      box.setAttribute("aria-invalid", "true");
      var described = (box.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (described.indexOf(line.id) === -1 && line.id) { box.setAttribute("aria-describedby", [line.id].concat(described).join(" ")); }
      box.focus();
    }
  }

  // beforeSwap fires on the swap target (the body, for a boosted form); the element that
  // made the request is in requestConfig.
  function requester(detail) { return (detail.requestConfig && detail.requestConfig.elt) || detail.elt; }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status < 400) { return; }
    event.detail.shouldSwap = false;
    var reason = reasonIn(xhr);
    if (reason && !/[.!?]$/.test(reason)) { reason += "."; }
    showProblem(requester(event.detail), reason || ("That did not work (the server answered " + xhr.status + "). Please try again."));
  });
  document.addEventListener("htmx:sendError", function (event) {
    showProblem(requester(event.detail), "The server could not be reached. Check your connection and try again.");
  });

  function count(box) {
    var counter = box.form && box.form.querySelector("[data-counter]");
    var limit = parseInt(box.getAttribute("data-max-chars"), 10);
    if (!counter || !limit) { return; }
    var used = box.value.length;
    var over = used - limit;
    counter.textContent = used.toLocaleString("en") + " / " + limit.toLocaleString("en") + " characters" +
      (over > 0 ? " — " + over.toLocaleString("en") + " over the limit; shorten it before marking." : "");
    counter.classList.toggle("over", over > 0);
    counter.classList.toggle("near", over <= 0 && used >= limit * 0.9);
  }

  function setUpCounters() { document.querySelectorAll("textarea[data-max-chars]").forEach(count); }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.matches && event.target.matches("textarea[data-max-chars]")) { count(event.target); }
  });
  document.addEventListener("DOMContentLoaded", setUpCounters);
  document.addEventListener("htmx:afterSettle", setUpCounters);

  // -- spoken answers ---------------------------------------------------------------

  var TYPES = [["audio/webm;codecs=opus", "webm"], ["audio/ogg;codecs=opus", "ogg"], ["audio/mp4", "m4a"]];

  function clock(ms) {
    var s = Math.floor(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function say(box, text, isError) {
    var status = box.querySelector("[data-speak-status]");
    status.textContent = "";
    var span = document.createElement("span");
    span.textContent = text;
    if (isError) { span.className = "error"; }
    status.appendChild(span);
    return status;
  }

  function upload(box, blob, filename) {
    var form = box.closest("form");
    var data = new FormData(form);
    data.delete("audio");
    data.append("audio", blob, filename);
    var buttons = box.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    var bar = document.createElement("progress");
    bar.max = 100; bar.value = 0;
    say(box, "Uploading…").appendChild(bar);
    var started = 0, ticker = null;
    var xhr = new XMLHttpRequest();
    xhr.open("POST", box.getAttribute("data-action"));
    xhr.setRequestHeader("HX-Request", "true");  // answer with the next step alone
    xhr.upload.onprogress = function (e) { if (e.lengthComputable) { bar.value = Math.round(100 * e.loaded / e.total); } };
    xhr.upload.onload = function () {
      started = Date.now();
      var transcribing = function () { say(box, "Transcribing… " + clock(Date.now() - started)); };
      transcribing();
      ticker = setInterval(transcribing, 500);
    };
    xhr.onloadend = function () {
      clearInterval(ticker);
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var job = xhr.status === 200 && doc.querySelector("[data-job]");
      if (job) { follow(box, job.getAttribute("data-job"), job.getAttribute("data-job-page"), buttons); return; }
      buttons.forEach(function (b) { b.disabled = false; });
      if (xhr.status === 200 && swapIn(box, doc)) { return; }
      var problem = doc.querySelector(".error");
      var message = problem ? Array.prototype.map.call(problem.querySelectorAll("p:not(:last-child)"), function (p) { return p.textContent; }).join(" ") : "";
      say(box, message || ("The recording could not be used (HTTP " + (xhr.status || "error") + ")."), true);
    };
    xhr.send(data);
  }

  // Put the "check your transcript" step in place of the answer form.
  function swapIn(box, doc) {
    var found = doc.querySelector("[data-spoken]");
    if (!found) { return false; }
    var next = document.importNode(found, true);
    var here = box.closest("section") || box.closest("form");
    here.replaceWith(next);
    if (window.htmx) { window.htmx.process(next); }
    var text = next.querySelector("[data-transcript]");
    if (text) { text.focus(); }
    return true;
  }

  function ordinal(n) {
    var s = ["th", "st", "nd", "rd"], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  // A team server queues the recording: poll the job, say where it stands, then fetch the check step.
  function follow(box, id, page, buttons) {
    var bar = document.createElement("progress");
    bar.max = 100;
    function done(message) {
      buttons.forEach(function (b) { b.disabled = false; });
      if (message) { say(box, message, true); }
    }
    function tick() {
      var poll = new XMLHttpRequest();
      poll.open("GET", "/api/v1/transcriptions/" + encodeURIComponent(id));
      poll.onloadend = function () {
        var job = null;
        try { job = JSON.parse(poll.responseText); } catch (e) { job = null; }
        if (poll.status !== 200 || !job) { done(reasonIn(poll) || "Lost track of the transcription (HTTP " + (poll.status || "error") + ")."); return; }
        var again = job.attempt > 1 ? " (try " + job.attempt + " of " + job.tries + ")" : "";
        if (job.state === "failed") { done("Your recording could not be transcribed: " + (job.error || "unknown reason").replace("\n", " — ") + "."); return; }
        if (job.state === "done") {
          var next = new XMLHttpRequest();
          next.open("GET", page);
          next.setRequestHeader("HX-Request", "true");
          next.onloadend = function () {
            done("");
            if (!swapIn(box, new DOMParser().parseFromString(next.responseText || "", "text/html"))) {
              say(box, "The transcript is ready but could not be shown; reload the page.", true);
            }
          };
          next.send();
          return;
        }
        if (job.state === "queued") {
          say(box, "Waiting for a transcriber: " + ordinal(job.position) + " in the queue" + again + "…");
        } else {
          bar.value = Math.round(100 * job.progress);
          say(box, "Transcribing… " + Math.round(100 * job.progress) + "% done" + again).appendChild(bar);
        }
        setTimeout(tick, 1000);
      };
      poll.send();
    }
    say(box, "Queued…");
    tick();
  }

  function setUpSpeaking(box) {
    if (box.hasAttribute("data-ready")) { return; }
    box.setAttribute("data-ready", "");
    var file = box.querySelector('input[type="file"]');
    box.querySelector("[data-transcribe]").addEventListener("click", function (event) {
      event.preventDefault();
      if (!file.files.length) { say(box, "Choose a recording first, or record one.", true); return; }
      upload(box, file.files[0], file.files[0].name);
    });
    var recorderRow = box.querySelector("[data-recorder]");
    if (!(navigator.mediaDevices && window.MediaRecorder)) { return; }
    recorderRow.hidden = false;
    var button = box.querySelector("[data-record]"), timer = box.querySelector("[data-timer]");
    var recorder = null, chunks = [], started = 0, ticker = null, kind = TYPES[0];
    button.addEventListener("click", function () {
      if (recorder && recorder.state === "recording") { recorder.stop(); return; }
      navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
        kind = TYPES.filter(function (t) { return MediaRecorder.isTypeSupported(t[0]); })[0] || ["", "webm"];
        recorder = kind[0] ? new MediaRecorder(stream, { mimeType: kind[0] }) : new MediaRecorder(stream);
        chunks = [];
        recorder.ondataavailable = function (e) { if (e.data.size) { chunks.push(e.data); } };
        recorder.onstop = function () {
          clearInterval(ticker);
          stream.getTracks().forEach(function (t) { t.stop(); });
          button.textContent = "● Record"; button.setAttribute("aria-pressed", "false");
          upload(box, new Blob(chunks, { type: recorder.mimeType || kind[0] }), "answer." + kind[1]);
        };
        recorder.start(250);
        started = Date.now();
        timer.textContent = "0:00";
        ticker = setInterval(function () { timer.textContent = clock(Date.now() - started); }, 250);
        button.textContent = "■ Stop"; button.setAttribute("aria-pressed", "true");
        say(box, "Recording… press Stop when you have finished.");
      }).catch(function (error) {
        say(box, "The microphone is not available (" + error.name + "); you can upload a recording or type instead.", true);
      });
    });
  }

  function setUpAll() { document.querySelectorAll("[data-speak]").forEach(setUpSpeaking); }
  document.addEventListener("DOMContentLoaded", setUpAll);
  document.addEventListener("htmx:afterSettle", setUpAll);
})();


// Mock interview: the per-question clock (a soft limit: it turns "over", it never stops you),
// and the debrief's Print button.
(function () {
  "use strict";
  function clock(s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
  function setUp() {
    document.querySelectorAll("[data-clock]:not([data-ticking])").forEach(function (box) {
      box.setAttribute("data-ticking", "");
      var limit = parseInt(box.getAttribute("data-clock"), 10), started = Date.now();
      var shown = box.querySelector("[data-clock-shown]");
      var timer = setInterval(function () {
        if (!document.body.contains(box)) { clearInterval(timer); return; }
        var s = Math.floor((Date.now() - started) / 1000);
        shown.textContent = clock(s);
        box.classList.toggle("over", s > limit);
      }, 500);
    });
    document.querySelectorAll("[data-print]:not([data-ready])").forEach(function (button) {
      button.setAttribute("data-ready", "");
      button.addEventListener("click", function () { window.print(); });
    });
  }
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();

// An open page asks again every few seconds with its ETag; when the answer is new (not
// 304) the page's content is swapped in place: no reload, the scroll position stays.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch || !window.DOMParser) { return; }
  var etag = document.body.getAttribute("data-etag");
  var every = parseInt(document.body.getAttribute("data-poll"), 10) || 2000;
  function poll() {
    fetch(location.href, {headers: {"If-None-Match": etag, "Accept": "text/html"},
                          cache: "no-store", credentials: "omit"})
      .then(function (answer) {
        if (answer.status !== 200) { return; }
        var fresh = answer.headers.get("ETag");
        return answer.text().then(function (text) {
          var doc = new DOMParser().parseFromString(text, "text/html");
          var next = doc.getElementById("live");
          if (next) { live.innerHTML = next.innerHTML; }
          if (fresh) { etag = fresh; document.body.setAttribute("data-etag", fresh); }
        });
      })
      .catch(function () {})
      .then(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();

// SPDX-License-Identifier: GPL-3.0-or-later
// The worker side of the page's engine: each message is one Hub line, each reply line is posted back.
var Module = (function () {
  var session = 0;
  var queue = [];
  function handle(line) {
    var size = lengthBytesUTF8(line) + 1;
    var text = _malloc(size);
    stringToUTF8(line, text, size);
    _worker_line(session, text);
    _free(text);
  }
  self.onmessage = function (event) {
    if (session) handle(String(event.data));
    else queue.push(String(event.data));
  };
  return {
    print: function (text) { postMessage('# ' + text); },
    printErr: function (text) { postMessage('# ' + text); },
    onRuntimeInitialized: function () {
      session = _worker_create();
      if (!session) {
        postMessage('error message="the engine could not start (out of memory)"');
        return;
      }
      postMessage('# ready');
      while (queue.length) handle(queue.shift());
    },
  };
})();

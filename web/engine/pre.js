// SPDX-License-Identifier: GPL-3.0-or-later
// The worker side of the page's engine: each message is one Hub line (or a file to store), each reply line is posted back.
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
  /* A file for the engine's file system: {file: '/dir/name', data: ArrayBuffer}
   * (the endgame databases), answered '# stored /dir/name'. */
  function store(message) {
    var dir = message.file.slice(0, message.file.lastIndexOf('/'));
    if (dir) FS.mkdirTree(dir);
    FS.writeFile(message.file, new Uint8Array(message.data));
    postMessage('# stored ' + message.file);
  }
  self.onmessage = function (event) {
    if (typeof event.data === 'object' && event.data && event.data.file) {
      if (session) store(event.data);
      else queue.push(event.data);
      return;
    }
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
      while (queue.length) {
        var next = queue.shift();
        if (typeof next === 'object') store(next);
        else handle(next);
      }
    },
  };
})();

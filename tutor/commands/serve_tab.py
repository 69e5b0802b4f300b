"""One browser tab's app: `python -m tutor.commands.serve_tab [--lang en|zh]`, started by `tutor serve`.

textual-serve runs this once per tab with TEXTUAL_DRIVER set to Textual's web driver, so the
app is the same `TutorApp` as in the terminal, plus what only a browser needs:
- trace files of a perf lab run are offered as downloads (command palette, "Download …"),
  through Textual's App.deliver_binary, which textual-serve turns into a browser download;
- links (lessons are Textual Markdown, which calls App.open_url) open in a browser tab: the web
  driver sends them to the page, nothing to add here.
The tab ends with its server: a parent-death signal (SIGTERM, which the web driver turns into a
clean exit, so a lab run stops in order), and a watchdog for the case where that exit hangs.
Each lab launcher the app starts dies with this process (tutor.labs.procs), its ranks with it.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from functools import partial
from pathlib import Path

from tutor.commands.serve import SERVER_PID_ENV, SHUTDOWN_GRACE_S
from tutor.text import T

OFFER = T("{count} trace file(s) ready: press ctrl+p and pick “Download …” to open them in https://ui.perfetto.dev",
          "{count} 个 trace 文件已就绪：按 ctrl+p，选“下载 …”，再用 https://ui.perfetto.dev 打开")
# The palette command's title and help.
COMMAND = (T("Download {name}", "下载 {name}"),
           T("a trace of the last lab run, for https://ui.perfetto.dev", "上一次 lab 运行的 trace，用 https://ui.perfetto.dev 打开"))


def trace_files(screen) -> list[Path]:
    """The trace files of the lab run the screen shows (the Labs screen keeps its `evidence`)."""
    evidence = getattr(screen, "evidence", None)
    paths = (evidence or {}).get("trace_files") if isinstance(evidence, dict) else None
    return [Path(path) for path in paths or [] if Path(path).is_file()]


def whole_writes(fileno: int):
    """A write function for the pipe to textual-serve: each packet whole, one writer at a time.

    Textual's web driver writes packets with a bare os.write from two threads: the app's output
    from the event loop, a download's chunks from its input thread. A write larger than the
    pipe's atomic size (4 KiB) can be split when the pipe is full (the reader is busy), so the
    other thread's packet lands inside it and textual-serve can no longer decode the stream; a
    write interrupted by a signal comes back short, and the driver drops the rest.
    """
    lock = threading.Lock()

    def write(data: bytes) -> None:
        view = memoryview(data)
        with lock:
            while view:
                view = view[os.write(fileno, view):]

    return write


def served_app(lang: str | None):
    import inspect

    from tutor.ui.app import TutorApp

    class ServedTutorApp(TutorApp):
        """TutorApp with the trace downloads; everything else is the terminal app's."""

        # Textual reads a relative CSS_PATH next to the module of the class that sets it.
        CSS_PATH = Path(inspect.getfile(TutorApp)).parent / TutorApp.CSS_PATH

        def get_driver_class(self):
            from textual.drivers.web_driver import WebDriver

            driver_class = super().get_driver_class()
            if not issubclass(driver_class, WebDriver):
                return driver_class  # not run by textual-serve: nothing to mend

            class WholeWritesDriver(driver_class):
                def __init__(self, *args, **kwargs) -> None:
                    super().__init__(*args, **kwargs)
                    self._write = whole_writes(self.fileno)  # the driver's own: partial(os.write, fileno)

            return WholeWritesDriver

        def on_mount(self) -> None:
            # Textual calls TutorApp.on_mount too (handlers run for each class in the MRO).
            self._offered: set[tuple[str, ...]] = set()
            # Polled, not hooked: the Labs screen has no event for "evidence shown", and a
            # once-a-second look at one attribute costs nothing.
            self.set_interval(1.0, self._offer_traces)

        def _offer_traces(self) -> None:
            files = trace_files(self.screen)
            key = tuple(str(path) for path in files)
            if files and key not in self._offered:
                self._offered.add(key)
                self.notify(OFFER.format(self.lang, count=len(files)), timeout=12)

        def get_system_commands(self, screen):
            from textual.app import SystemCommand

            yield from super().get_system_commands(screen)
            title, help_text = COMMAND
            for path in trace_files(screen):
                yield SystemCommand(title.format(self.lang, name=path.name), help_text.get(self.lang),
                                    partial(self.download_trace, path))

        def download_trace(self, path: Path) -> None:
            # One download per command: a browser lets a page open one download per key press.
            self.deliver_binary(path, open_method="download", mime_type="application/json")

    return ServedTutorApp(lang=lang)


def watch_server(server_pid: int | None) -> None:
    """Leave when the server is gone, even if the clean exit the parent-death signal asked for hangs."""
    from tutor.labs.procs import die_with_parent

    if server_pid is None:
        return
    die_with_parent(signal.SIGTERM, expected_parent=server_pid)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        time.sleep(SHUTDOWN_GRACE_S)
        os._exit(1)

    threading.Thread(target=watch, name="tutor-serve-watchdog", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tutor-serve-tab")
    parser.add_argument("--lang", choices=("en", "zh"), default=None)
    args = parser.parse_args(argv)
    pid = os.environ.get(SERVER_PID_ENV, "")
    watch_server(int(pid) if pid.isdigit() else None)
    served_app(args.lang).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

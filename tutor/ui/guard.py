"""Nothing a learner types ends the app: an error in a handler, worker or timer is logged and shown.

Textual's own policy is that any unhandled exception exits the app with a traceback. Worse, an
exception raised inside a message handler also stops that widget's message loop, so merely
catching it at the app would leave a dead screen behind. So the guard sits on our side of the
loop: every handler of our screens, widgets and app (`on_*`, `action_*`, `watch_*`, `@on(...)`
handlers, and callbacks marked with `@guarded`) is wrapped when its class is created
(`Guarded` metaclass). A caught error becomes a notification plus an entry with its traceback
in `<data folder>/logs/tutor-ui.log`, and the screen carries on. Errors of workers and timers
reach `TutorApp._handle_exception` instead, which treats them the same way (their loops are not
broken by them). Anything else (an error while composing or drawing) still ends the app, logged
first, and `tutor start` then exits non-zero.
"""

from __future__ import annotations

import functools
import inspect
import io
import logging
import re
import traceback
from pathlib import Path

from textual.actions import SkipAction
from textual.message_pump import MessagePump

LOG_NAME = "tutor-ui.log"
_HANDLER_PREFIXES = ("on_", "_on_", "action_", "watch_", "_watch_")
_HANDLER_NAMES = frozenset({"render_texts", "_render_texts", "tick"})
"""Methods our screens hand to `watch(...)` or a timer under these names."""
_logger: logging.Logger | None = None


def log_path() -> Path:
    from tutor.paths import home_dir

    return home_dir() / "logs" / LOG_NAME


def _log() -> logging.Logger:
    """The app's error log, opened on the first error (a maintained rotating handler keeps it bounded)."""
    global _logger
    if _logger is None:
        from logging.handlers import RotatingFileHandler

        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        logger = logging.getLogger("tutor.ui")
        logger.propagate = False
        logger.setLevel(logging.INFO)
        handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        _logger = logger
    return _logger


def reset_log() -> None:
    """Forget the open log (tests point TUTOR_HOME elsewhere between apps)."""
    global _logger
    if _logger is not None:
        for handler in list(_logger.handlers):
            _logger.removeHandler(handler)
            handler.close()
    _logger = None


_OBJECT_REPR = re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>")
"""What `str()` gives for an exception whose argument is an object without `__str__`: Textual's
StylesheetParseError carries a StylesheetErrors renderable, and showed as its repr."""


def _readable(error: BaseException) -> str:
    """The error's own words; for a str() that is an object repr, the first line it renders."""
    message = str(error)
    if not _OBJECT_REPR.search(message):
        return message
    stylesheet = _stylesheet_error(error)
    if stylesheet:
        return stylesheet
    renderable = error.__rich__() if hasattr(error, "__rich__") else None
    if renderable is None:
        return ""
    from rich.console import Console

    console = Console(width=200, color_system=None, force_terminal=False, file=io.StringIO())
    with console.capture() as capture:
        console.print(renderable)
    lines = (line.strip(" │╭╮╰╯─") for line in capture.get().splitlines())
    return next((line for line in lines if line), "")


def _stylesheet_error(error: BaseException) -> str:
    """Textual's StylesheetErrors as `file:line:col: message` of its first error (its render is a panel)."""
    rules = getattr(getattr(error, "errors", None), "rules", None)
    if not isinstance(rules, list):
        return ""
    for rule in rules:
        for token, message in getattr(rule, "errors", ()):
            location = token.referenced_by.location if token.referenced_by else token.location
            path, variable = token.read_from
            where = Path(path).name if path else (variable or "<css>")
            plain = getattr(message, "plain", message)
            return f"{where}:{location[0] + 1}:{location[1] + 1}: {plain}"
    return ""


def one_line(error: BaseException) -> str:
    """The error as one readable line, led by its type (`ValueError: ...`), at most 160 characters."""
    kind = type(error).__name__
    message = " ".join(_readable(error).split())
    message = f"{kind}: {message}" if message else kind
    return message if len(message) <= 160 else message[:157] + "…"


def log_error(error: BaseException, where: str, fatal: bool = False) -> None:
    try:
        detail = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        _log().error("%s in %s: %s\n%s", "fatal" if fatal else "caught", where, one_line(error), detail.rstrip())
    except Exception:  # a full disk or a read-only home must not turn one error into two
        pass


def leaving(node) -> bool:
    """`node` is detached, or it or a parent is being removed.

    A popped screen stays attached while Textual prunes it: its children go first, so for a few
    ticks the screen is attached, closed and empty (measured: 7 loop turns after pop_screen), and a
    callback that queries its widgets then raises NoMatches (the monkey under load, seed 1600:
    Review's load finishing after Esc)."""
    from textual.app import App

    if isinstance(node, App):  # the root: never "attached" to anything, and leaves only by exiting
        return bool(node._exit)
    if not node.is_attached:
        return True
    while node is not None:
        if getattr(node, "_pruning", False) or getattr(node, "_closing", False) or getattr(node, "_closed", False):
            return True
        node = getattr(node, "_parent", None)
    return False


def palette_teardown(error: BaseException) -> bool:
    """Textual 8.2's command palette: its search worker and watchers query its own children and
    raise NoMatches when they run after the palette was closed (Esc while it still searches).
    Nothing on screen depends on them any more, so such an error is only logged."""
    from textual.css.query import NoMatches

    if not isinstance(error, NoMatches):
        return False
    frames = traceback.extract_tb(error.__traceback__)
    return any(frame.filename.replace("\\", "/").endswith("textual/command.py") for frame in frames)


def report(app, error: BaseException, where: str) -> None:
    """Log the error, remember it on the app, and say so on screen in one line."""
    log_error(error, where)
    recorded = getattr(app, "ui_errors", None)
    if isinstance(recorded, list):
        recorded.append((where, error))
    try:
        from tutor.ui.strings import text

        lang = getattr(app, "lang", "en")
        app.notify(text("error.caught", lang, error=one_line(error), path=str(log_path())),
                   title=text("error.title", lang), severity="error", timeout=10, markup=False)
    except Exception:
        pass


def guarded(function):
    """Wrap a handler so an exception in it is reported instead of ending the app."""
    if getattr(function, "_tutor_guarded", False):
        return function
    where = getattr(function, "__qualname__", repr(function))

    if inspect.iscoroutinefunction(function):
        @functools.wraps(function)
        async def async_wrapper(self, *args, **kwargs):
            try:
                return await function(self, *args, **kwargs)
            except SkipAction:
                raise
            except Exception as error:
                _caught(self, error, where)

        wrapper = async_wrapper
    else:
        @functools.wraps(function)
        def wrapper(self, *args, **kwargs):
            try:
                return function(self, *args, **kwargs)
            except SkipAction:
                raise
            except Exception as error:
                _caught(self, error, where)

    wrapper._tutor_guarded = True
    return wrapper


def _caught(node, error: BaseException, where: str) -> None:
    """An error in a handler of `node`: reported, or only logged when it is a NoMatches of a node being
    removed (`leaving`): there is nothing left to show it on."""
    from textual.css.query import NoMatches
    from textual.dom import DOMNode

    if isinstance(error, NoMatches) and isinstance(node, DOMNode) and leaving(node):
        log_error(error, where)
    else:
        report(_app_of(node), error, where)


def _app_of(node):
    from textual.app import App

    if isinstance(node, App):
        return node
    try:
        return node.app
    except Exception:
        from textual._context import active_app

        return active_app.get(None)


def _is_handler(name: str, value) -> bool:
    if not inspect.isfunction(value):
        return False
    return name.startswith(_HANDLER_PREFIXES) or name in _HANDLER_NAMES or hasattr(value, "_textual_on") or getattr(value, "_tutor_guard", False)


class Guarded(type(MessagePump)):
    """Metaclass of the app, screens and widgets of `tutor.ui`: wraps their handlers in `guarded`.

    The wrapping happens before Textual's own metaclass collects the `@on(...)` handlers, so
    the wrapped functions (which keep `_textual_on` through functools.wraps) are the ones registered.
    """

    def __new__(mcs, name, bases, namespace, **kwargs):
        for key, value in list(namespace.items()):
            if _is_handler(key, value):
                namespace[key] = guarded(value)
        return super().__new__(mcs, name, bases, namespace, **kwargs)


def callback(function):
    """Mark a method that Textual calls back (a watcher, a timer, call_from_thread) for guarding."""
    function._tutor_guard = True
    return function


def from_thread(node, callback, *args) -> None:
    """For a worker thread: run `callback(*args)` on the app's loop, unless `node` has left the DOM.

    A screen's worker outlives the screen: Esc while Review still loaded its queue removed the
    screen, and the load's callback, already queued, then queried widgets that were gone
    (NoMatches; the monkey in CI, seed 1600). So the check is made on the loop, when the callback
    is about to run, not in the thread. A node already detached in the thread has no app to ask,
    and an app that is closing takes no more calls: both drop the callback too.
    """
    from textual._context import NoActiveAppError

    def if_attached():
        if not leaving(node):
            return callback(*args)
        return None

    try:
        app = node.app
    except NoActiveAppError:
        return
    try:
        app.call_from_thread(if_attached)
    except RuntimeError:
        if app.is_running:  # the callback's own error, not an app that closed under the worker
            raise

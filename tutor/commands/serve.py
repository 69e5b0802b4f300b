"""`tutor serve [--host H] [--port N] [--lang en|zh] [--allow-remote]`: the app in a browser tab.

The web side is `textual-serve` (the `serve` extra), not a second interface: each browser tab
that connects gets its own `tutor` app process (tutor.commands.serve_tab) speaking Textual's
web-driver protocol over pipes, and textual-serve relays it to xterm.js in the page. History
lives in the store, which two processes may share, so two tabs at once lose nothing.

What this module adds to textual-serve, and why:
- Loopback by default; any other address needs `--allow-remote` and gets a warning, because
  whoever reaches the port can use the app and run labs on this machine.
- A browser sends WebSockets across origins, and DNS rebinding lets a web page reach a loopback
  port by a name of its own: on loopback the server answers only requests whose Host header
  names this machine by a loopback name, and opens a tab only for a same-origin page.
- The page's URLs are built from the request's Host header (textual-serve builds them from the
  bind address, which is wrong for 0.0.0.0).
- Nothing outlives the server: on shutdown every tab is told to quit, and whatever process the
  server started that is still there after a grace period is killed (each tab also dies with
  the server, and each lab launcher with its tab: tutor.labs.procs).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shlex
import signal
import socket
import sys
import time

from tutor.commands._common import add_lang_flag
from tutor.text import T

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
SERVER_PID_ENV = "TUTOR_SERVE_PID"
"""Set for each tab process: the server it belongs to (a tab whose parent is gone quits)."""
SHUTDOWN_GRACE_S = 5.0

EPILOG = """\
Open the printed address in a browser. Each tab is its own app, with the same keys as
`tutor start`; your history is shared with the terminal app. Labs run on this machine.
Stop the server with Ctrl-C: every tab and every lab process ends with it.

By default only this machine can connect. `--host 0.0.0.0 --allow-remote` opens the port to the
network: anyone who can reach it can use the app and run labs here, so do that only on a
network you trust. Needs the serve extra: pip install '.[serve]' in the tutor's checkout.
"""


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port}")
    return port


def add_arguments(parser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    add_lang_flag(parser)
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow a --host other than loopback (anyone who reaches the port can run labs here)")


def is_loopback(host: str) -> bool:
    """Whether `host` names only this machine (an address in 127/8 or ::1, or `localhost`)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name other than localhost may resolve anywhere


def check_port_free(host: str, port: int) -> None:
    """One line instead of aiohttp's traceback when the port is taken or the host is wrong.

    The server binds again right after (a race no check can close; `run` turns a bind error
    there into the same line). SO_REUSEADDR as aiohttp sets it, so a port in TIME_WAIT counts
    as free, as it will be for the server.
    """
    from tutor.errors import UserInputError

    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise UserInputError(f"cannot listen on {host!r}: {error.strerror}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                raise UserInputError(_bind_error(host, port, error)) from None


def _bind_error(host: str, port: int, error: OSError) -> str:
    import errno

    if error.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is already in use; pick another with --port N"
    if error.errno == errno.EACCES:
        return f"no permission to listen on port {port}; pick one above 1023 with --port N"
    return f"cannot listen on {host}:{port}: {error.strerror or error}"


def tab_command(lang: str | None) -> str:
    """The shell command textual-serve runs for each tab (it runs it with /bin/sh -c).

    `exec` so the tab process is the server's own child, not a shell's: its parent-death signal
    then follows the server.
    """
    argv = [sys.executable, "-m", "tutor.commands.serve_tab"] + (["--lang", lang] if lang else [])
    return "exec " + shlex.join(argv)


def allowed_hosts(host: str, port: int) -> set[str] | None:
    """Host header values the server answers on loopback; None (any) when serving remotely."""
    if not is_loopback(host):
        return None
    names = set(LOOPBACK_NAMES) | {host if ":" not in host or host.startswith("[") else f"[{host}]"}
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return {name.lower() for name in hosts}


def run(args) -> int:
    from tutor.commands._common import env_lang
    from tutor.errors import TutorError, UserInputError

    lang = args.lang or env_lang()
    args.host = args.host.strip("[]")  # `[::1]` as in a URL is `::1` to bind
    if not is_loopback(args.host):
        if not args.allow_remote:
            raise UserInputError(f"--host {args.host} is reachable from other machines: anyone who reaches "
                                 "the port can use the app and run labs here; add --allow-remote to do it anyway")
        print(f"tutor: warning: serving on {args.host}: anyone who can reach port {args.port} can use the app "
              "and run labs on this machine", file=sys.stderr)
    try:
        TutorServer = server_class()
    except ImportError as error:
        if error.name and error.name.split(".")[0] in ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2"):
            raise TutorError("`tutor serve` needs textual-serve, which this Python does not have: in the tutor's "
                             "checkout, pip install '.[serve]'") from None
        raise
    check_port_free(args.host, args.port)
    os.environ[SERVER_PID_ENV] = str(os.getpid())  # textual-serve hands its environment to each tab
    server = TutorServer(tab_command(lang), host=args.host, port=args.port,
                         allowed_hosts=allowed_hosts(args.host, args.port), lang=lang or "en")
    try:
        server.serve()
    except OSError as error:  # the port was taken between the check and the bind
        raise UserInputError(_bind_error(args.host, args.port, error)) from None
    finally:
        end_leftovers(os.getpid())
    return 0


def end_leftovers(root: int, grace_s: float = SHUTDOWN_GRACE_S) -> int:
    """SIGTERM every process still below `root`, then SIGKILL whatever is left after `grace_s`.

    The tabs were told to quit already; this is for one that did not (a hung app, a lab launcher
    between its fork and its parent-death signal). Returns how many were still there.
    """
    from tutor.labs.procs import descendants, is_alive, kill_all

    left = descendants(root)
    if not left:
        return 0
    kill_all(left, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and any(is_alive(proc) for proc in left):
        time.sleep(0.05)
    kill_all(left | descendants(root), signal.SIGKILL)
    return len(left)


def url_of(host: str, port: int) -> str:
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{name}:{port}"


STARTED = T("tutor: serving the app on {url} (each browser tab is its own app; Ctrl-C stops the server, "
            "its tabs and their labs)",
            "tutor：应用已在 {url} 提供服务（每个浏览器标签页是一个独立的应用；按 Ctrl-C 停止服务器、"
            "所有标签页及其中的 lab）")


def server_class():
    """textual-serve's Server with the checks and the clean-up the module docstring lists.

    Built in a function: the command table imports this module for `tutor --help`, which must
    work (and stay fast) without the serve extra.
    """
    import asyncio
    import logging

    from aiohttp import WSCloseCode, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    log = logging.getLogger("textual-serve")

    class TabService(AppService):
        """One tab's app process, whose stop is bounded: a tab that ignores `quit` is killed."""

        async def stop(self) -> None:
            process = self._process  # textual-serve keeps it private and offers no kill

            async def quit_and_reap() -> None:
                await AppService.stop(self)  # sends `quit`, returns when the app closes its output
                if process is not None:
                    await process.wait()     # which is before it has exited: wait for that too

            try:
                await asyncio.wait_for(quit_and_reap(), SHUTDOWN_GRACE_S)
            except (TimeoutError, asyncio.TimeoutError):
                if process is not None and process.returncode is None:
                    process.kill()
                    await process.wait()

    class TutorServer(Server):
        def __init__(self, command: str, *, host: str, port: int, allowed_hosts: set[str] | None,
                     lang: str = "en") -> None:
            super().__init__(command, host=host, port=port, title="tutor")
            self.allowed_hosts = allowed_hosts
            self.lang = lang
            self.sockets: set[web.WebSocketResponse] = set()

        def refusal(self, request: web.Request, websocket: bool = False) -> str | None:
            """Why this request is not served (None: serve it)."""
            host = (request.host or "").lower()
            if self.allowed_hosts is not None and host not in self.allowed_hosts:
                return f"this tutor answers only at {url_of(self.host, self.port)}"
            origin = request.headers.get("Origin")
            # Browsers send Origin with every WebSocket; a page of another site must not drive
            # the app (clients without Origin are local programs, not pages).
            if websocket and origin is not None and origin.lower() not in (f"http://{host}", f"https://{host}"):
                return "a page of another origin cannot open the tutor"
            return None

        def initialize_logging(self) -> None:
            super().initialize_logging()
            logging.getLogger("aiohttp.access").setLevel(logging.WARNING)  # a line per request is noise here

        async def on_startup(self, app: web.Application) -> None:
            print(STARTED.format(self.lang, url=url_of(self.host, self.port)), flush=True)

        async def on_shutdown(self, app: web.Application) -> None:
            # aiohttp waits for open handlers before it stops; a WebSocket stays open until
            # closed, so close each: its handler then stops its tab (TabService.stop).
            await asyncio.gather(*(socket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
                                   for socket in list(self.sockets)), return_exceptions=True)
            # Then wait for every tab to be stopped (a handler leaves self.sockets only after its
            # tab's process has exited), so none is left to a closed event loop.
            deadline = asyncio.get_running_loop().time() + SHUTDOWN_GRACE_S + 2
            while self.sockets and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)

        async def handle_index(self, request: web.Request):
            if (why := self.refusal(request)) is not None:
                raise web.HTTPForbidden(text=why)
            # The page's URLs name the server as the browser reached it (textual-serve would
            # write the bind address, which for 0.0.0.0 no browser can reach). No await runs
            # between this and the page being rendered, so concurrent requests cannot mix.
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def handle_download(self, request: web.Request) -> web.StreamResponse:
            if (why := self.refusal(request)) is not None:
                raise web.HTTPForbidden(text=why)
            return await super().handle_download(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            # textual-serve's own handler, with the origin check, the tab kept in self.sockets
            # and a TabService (textual-serve offers no hook for either).
            if (why := self.refusal(request, websocket=True)) is not None:
                raise web.HTTPForbidden(text=why)
            websocket = web.WebSocketResponse(heartbeat=15)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            service: TabService | None = None
            self.sockets.add(websocket)
            try:
                await websocket.prepare(request)
                service = TabService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                     close=websocket.close, download_manager=self.download_manager,
                                     debug=self.debug)
                await service.start(width, height)
                await self._process_messages(websocket, service)
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:
                log.exception(error)
            finally:
                try:
                    if service is not None:
                        await service.stop()
                finally:
                    self.sockets.discard(websocket)
            return websocket

    return TutorServer

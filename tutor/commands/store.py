"""`tutor store path|check|backup|recover`: where the history lives, and the way out when it breaks."""

from __future__ import annotations


def add_arguments(parser) -> None:
    parser.add_argument("action", choices=("path", "check", "backup", "recover"),
                        help="path: print where it is; check: integrity check; backup: copy it now; "
                             "recover: move a damaged database aside and restore the newest good backup")
    parser.add_argument("--force", action="store_true",
                        help="recover even a healthy database (it is set aside, never deleted)")


def run(args) -> int:
    from tutor.store import Store, recover
    from tutor.store.db import default_path

    path = default_path()
    if args.action == "path":
        print(path)
        return 0
    if args.action == "recover":
        from tutor.store.db import inspect

        notes: list[str] = []
        healthy = inspect(path)[0] == "healthy"
        moved, restored = recover(path, force=getattr(args, "force", False), notes=notes)
        label = "healthy database set aside as" if healthy else "damaged database kept as"
        print(f"{label} {moved}" if moved else f"no database at {path}")
        for note in notes:
            print(f"note: {note}")
        print(f"restored {restored.name}" if restored else "no readable backup; a fresh database will be created")
        with Store(path):
            pass
        return 0
    with Store(path) as store:
        if args.action == "backup":
            print(store.backup())
            return 0
        verdict = store.integrity_check()
        print(f"{path}: {verdict} (schema {store.version})")
        return 0 if verdict == "ok" else 1

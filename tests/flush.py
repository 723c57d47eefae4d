"""After a transactional test, PostgreSQL's tables are emptied by DELETE, not TRUNCATE.

Django's flush empties every table with one TRUNCATE. On PostgreSQL that gives each table
and index new files: about 240 ms a flush of this project's tables, against 6-8 ms for
DELETE of the few rows a test leaves (docs/benchmarks.md), paid after each of the two
hundred transactional tests (browser, live server, worker, daphne). Django declares its
foreign keys on PostgreSQL DEFERRABLE INITIALLY DEFERRED, and flush runs its statements in
one transaction, so the order of the DELETEs does not matter.

The content types and permissions stay: they are all that post_migrate, which Django runs
after a flush, writes back (contenttypes and auth are its only listeners here), so after
such a flush it is not run (another 80-130 ms of queries). A flush that resets the
sequences keeps Django's TRUNCATE ... RESTART IDENTITY and its post_migrate.
"""
from django.core.management.commands import flush as flush_command
from django.db.backends.postgresql.operations import DatabaseOperations

KEPT = {"django_content_type", "auth_permission"}  # what post_migrate would write back
_truncate, _post_migrate = DatabaseOperations.sql_flush, flush_command.emit_post_migrate_signal
_kept_on: set[str] = set()  # databases whose last flush kept KEPT


def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences:
        _kept_on.discard(self.connection.alias)
        return _truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    _kept_on.add(self.connection.alias)
    return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables
            if table not in KEPT]


def post_migrate_unless_kept(verbosity, interactive, db, **kwargs):
    if db in _kept_on:
        _kept_on.discard(db)
        return
    _post_migrate(verbosity, interactive, db, **kwargs)


def install() -> None:
    DatabaseOperations.sql_flush = sql_flush
    flush_command.emit_post_migrate_signal = post_migrate_unless_kept

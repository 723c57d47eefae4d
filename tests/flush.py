"""After a transactional test, PostgreSQL's tables are emptied by DELETE, not TRUNCATE.

Django's flush empties every table with one TRUNCATE. On PostgreSQL that gives each table
and index new files: about 240 ms a flush of this project's tables, against 6-8 ms for
DELETE of the few rows a test leaves (docs/benchmarks.md), paid after each of the two
hundred transactional tests (browser, live server, worker, daphne). Django declares its
foreign keys on PostgreSQL DEFERRABLE INITIALLY DEFERRED, and flush runs its statements in
one transaction, so the order of the DELETEs does not matter. The content types and
permissions stay: post_migrate, which runs after a flush, would write the same rows back
(under new ids, so they keep theirs). A flush that resets the sequences keeps Django's
TRUNCATE ... RESTART IDENTITY.
"""
from django.db.backends.postgresql.operations import DatabaseOperations

_truncate = DatabaseOperations.sql_flush
KEPT = {"django_content_type", "auth_permission"}  # what post_migrate writes back


def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences:
        return _truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables
            if table not in KEPT]


def install() -> None:
    DatabaseOperations.sql_flush = sql_flush

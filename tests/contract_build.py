"""Each contract walk's test is built when it runs, not when it is collected.

schemathesis builds an operation's hypothesis test, its coverage cases and its schema
examples included, as it collects the operation's item: about 4 s of CPU for the 191
items, in every pytest-xdist worker, though each item runs in one. Here the item holds a
stand-in with the test's fixtures that builds the real test (the same function
schemathesis calls, with the same arguments) on its first call, in the worker that runs
it. The cases, the settings and the checks are the ones schemathesis would have built;
its marks are copied onto the stand-in, so its error reports read them as before.
"""
import functools
import inspect

from schemathesis.pytest import _test_builder

_build_now = _test_builder.build_operation_test


def build_when_run(**arguments):
    test_function = arguments["test_func"]
    built = []

    @functools.wraps(test_function, updated=())  # not its hypothesis settings: no @given here
    def run(*args, **fixtures):
        if not built:
            built.append(_build_now(**arguments))
            run.__dict__.update(vars(built[0]))
        return built[0](*args, **fixtures)

    # The fixtures the test asks for: all but `case`, which the built test draws.
    signature = inspect.signature(test_function)
    run.__signature__ = signature.replace(parameters=[p for p in signature.parameters.values() if p.name != "case"])
    del run.__wrapped__
    run.pytestmark = getattr(test_function, "pytestmark", [])
    return run


def install():
    """From now on, schemathesis in this process builds operation tests when they run."""
    _test_builder.build_operation_test = build_when_run

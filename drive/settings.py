"""Settings read from the environment.

Nothing set is the embedded default: an SQLite file, Celery tasks run eagerly and
Channels uses its in-memory layer. DATABASE_URL switches to PostgreSQL, REDIS_URL to
Redis for the Celery broker, the result backend, the channel layer and the cache.
"""
import os
import tempfile
from typing import Any
from pathlib import Path

import dj_database_url
from kombu import Queue
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default):
    value = os.environ.get(name)
    return [item.strip() for item in value.split(",") if item.strip()] if value else default


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or (
    "embedded-development-key-not-for-production-" + "x" * 20 if DEBUG else None
)
if not SECRET_KEY:
    raise RuntimeError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # first: runserver then serves websockets too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here: the hall may have no internet
    "channels",
    "simple_history",
    "drive.events",
    "drive.movements",
    "drive.scoring",
    "drive.live",
    "drive.games",  # online tables: the table runtime, below the evening
    "drive.play",  # casual tables and the lobby, on top of games
    "drive.seasons",  # leagues across a club's evenings: beside the room, above the evening
    "drive.backup",  # reads every app: the top floor
    "drive.demo",  # plays a demo evening through every app's services: the top floor
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "drive.core.security_headers.SecurityHeadersMiddleware",  # CSP and Permissions-Policy on every response
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "drive.core.throttles.RouteLimitMiddleware",  # logins, sign-up, token routes, result entry: 429
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "drive.core.limits.BodyLimitMiddleware",  # a body over DATA_UPLOAD_MAX_MEMORY_SIZE: 400 before any view
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "drive.core.middleware.ServiceErrorMiddleware",
    "drive.core.middleware.HtmxFragmentMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "drive.urls"
ASGI_APPLICATION = "drive.asgi.application"
WSGI_APPLICATION = "drive.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "drive.events.views.context.organiser_flag",
                "drive.core.context.page_constants",
            ],
        },
    },
]

# --- database -------------------------------------------------------------------
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"))
SQLITE_OPTIONS = {
    # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of failing.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # A bounded pool per process: under ASGI every sync view runs in a thread of its own,
    # and persistent connections (CONN_MAX_AGE > 0) gave one connection per thread until
    # PostgreSQL said "too many clients". Django refuses a pool with persistent connections.
    # Health checks: the pool replaces a connection broken by a database restart.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
    if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # a SQLite URL: no pool, the embedded options
        DATABASES["default"]["OPTIONS"] = dict(SQLITE_OPTIONS)
    else:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DATABASE_POOL_MIN", 2)),
            "max_size": int(os.environ.get("DATABASE_POOL_MAX", 10)),
            "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", 30)),  # seconds a request waits for one
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            "OPTIONS": SQLITE_OPTIONS,
            # A file (live-server tests share it across threads), one per test process.
            "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"whist-test-{os.getpid()}.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery, channels, cache ---------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    if REDIS_URL.split("://")[0] in ("redis", "rediss"):
        # kombu's Redis transport with the fix that keeps the worker alive when Redis stops
        # while it holds unacknowledged tasks (drive.celery.RedisChannel)
        CELERY_BROKER_TRANSPORT = "drive.celery:RedisTransport"
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CHANNEL_LAYERS = {
        # Each server process holds one connection per event it serves plus a few; the pool
        # must still take a room of pages reconnecting at once after a restart.
        # drive.core.channel_layer: channels_redis's layer whose receive blocks 2 s in BZPOPMIN,
        # reads within 5 s (an answer a moment late no longer closes the socket, 1011) and stops
        # when cancelled (a live feed's shutdown no longer hangs on Python 3.11's wait_for).
        "default": {"BACKEND": "drive.core.channel_layer.RedisChannelLayer",
                    "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": 5}]}}
    }
    # Only what can be lost lives in the cache: while Redis is away it answers "not there"
    # instead of failing the request (drive/core/cache.py), and never holds a request long.
    CACHES = {"default": {"BACKEND": "drive.core.cache.TolerantRedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task is acknowledged after it ran, so a crash re-queues it
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Killed workers and Redis outages. A task a killed worker held (acks_late)
# comes back after the visibility timeout: longer than any task (a movement search is at
# most MOVEMENT_SAFETY_SECONDS), far shorter than Redis's default hour. A publish that cannot
# reach the broker gives up within about a second: the request is never held for it (the
# enqueue runs after commit and is logged, the sweep below makes the work good). The
# worker keeps reconnecting for as long as Redis is away.
TASK_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", 300))
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": TASK_VISIBILITY_TIMEOUT, "socket_connect_timeout": 1,
                                   "socket_timeout": 2}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True  # re-queued, not run twice at once
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
# Robots' moves have queues and workers of their own (docs/deployment.md): `robots` for a
# quick robot's move where a person waits, `robots_slow` for strong robots' moves and tables
# where nobody is present; at most one pending move a table. A worker started without -Q
# (a laptop's single worker) consumes every queue.
PLAY_ROBOT_QUEUE = os.environ.get("PLAY_ROBOT_QUEUE", "robots")
PLAY_ROBOT_SLOW_QUEUE = os.environ.get("PLAY_ROBOT_SLOW_QUEUE", "robots_slow")
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue(name, routing_key=name)
                      for name in (CELERY_TASK_DEFAULT_QUEUE, PLAY_ROBOT_QUEUE, PLAY_ROBOT_SLOW_QUEUE)]
CELERY_TASK_ROUTES = {"drive.games.tasks.robot_move": {"queue": PLAY_ROBOT_QUEUE}}
# Beat (a process of its own, or `worker -B`) runs the standings sweep: every event whose
# stored standings are behind its results is recomputed, whatever became of its task.
STANDINGS_SWEEP_SECONDS = float(os.environ.get("STANDINGS_SWEEP_SECONDS", 20))
PLAY_SWEEP_SECONDS = float(os.environ.get("PLAY_SWEEP_SECONDS", 5))
# A robot's move waits a human-like moment (seconds, drawn between the two) in the worker.
PLAY_ROBOT_DELAY = (float(os.environ.get("PLAY_ROBOT_DELAY_MIN", 0.4)), float(os.environ.get("PLAY_ROBOT_DELAY_MAX", 1.2)))
# --- online play: what one user may start (past a limit the API and the page answer 429) --
PLAY_TABLES_ALIVE_PER_USER = int(os.environ.get("PLAY_TABLES_ALIVE_PER_USER", 5))  # unfinished casual tables created
PLAY_TABLES_PER_HOUR = int(os.environ.get("PLAY_TABLES_PER_HOUR", 20))  # casual tables created in the last hour
PLAY_STRONG_SEATS_PER_USER = int(os.environ.get("PLAY_STRONG_SEATS_PER_USER", 3))  # strong robots at their unfinished tables
# A casual table with no person present (every person silent, or a robot standing in) this
# long is paused: its robots stop; this long more and it is closed. Robots never play alone.
PLAY_IDLE_PAUSE_SECONDS = float(os.environ.get("PLAY_IDLE_PAUSE_SECONDS", 120))
PLAY_IDLE_CLOSE_SECONDS = float(os.environ.get("PLAY_IDLE_CLOSE_SECONDS", 24 * 3600))
# A table socket: sockets one user holds open, and actions a socket and a user may send.
PLAY_SOCKETS_PER_USER = int(os.environ.get("PLAY_SOCKETS_PER_USER", 20))
PLAY_SOCKET_ACTIONS = os.environ.get("PLAY_SOCKET_ACTIONS", "10/second")
PLAY_USER_ACTIONS = os.environ.get("PLAY_USER_ACTIONS", "30/second")
PLAY_FRAME_MAX_BYTES = int(os.environ.get("PLAY_FRAME_MAX_BYTES", 4096))
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "sweep-stale-standings": {"task": "drive.scoring.tasks.sweep_stale_standings", "schedule": STANDINGS_SWEEP_SECONDS,
                              "options": {"expires": STANDINGS_SWEEP_SECONDS}},
    # Online tables: a seat silent past its table's timeout gets a robot standing in.
    "sweep-silent-seats": {"task": "drive.games.tasks.sweep_silent_seats", "schedule": PLAY_SWEEP_SECONDS,
                           "options": {"expires": PLAY_SWEEP_SECONDS}},
    # An evening's online tables: at the round's deadline robots finish the hands still in play.
    "finish-late-tables": {"task": "drive.scoring.tasks.finish_late_tables", "schedule": PLAY_SWEEP_SECONDS,
                           "options": {"expires": PLAY_SWEEP_SECONDS}},
    # Casual tables nobody has come to for PLAY_IDLE_CLOSE_SECONDS are closed.
    "close-idle-tables": {"task": "drive.games.tasks.close_idle_tables", "schedule": 60, "options": {"expires": 60}},
}
# The embedded default has no beat: bin/serve sets EMBEDDED_BEAT and the server runs the
# schedule above in a thread of its own, eagerly (drive/core/beat.py). Ignored with Redis.
EMBEDDED_BEAT = os.environ.get("EMBEDDED_BEAT", "").lower() in ("1", "true", "yes")
CELERY_BEAT_SCHEDULE_FILENAME = os.environ.get(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(Path(tempfile.gettempdir()) / "whist-drive-celerybeat-schedule"))

# --- auth ------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "me"
LOGOUT_REDIRECT_URL = "event-list"

# --- i18n ------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian")), ("uk", _("Ukrainian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

# --- static ----------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "drive" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- email -----------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "whist-drive@localhost")

# --- REST API --------------------------------------------------------------------
# The largest request body taken (bytes); more is a 400 (drive.core.limits).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DJANGO_MAX_BODY_BYTES", 1_048_576))
# Seconds a page's ticket to its event's websocket stays good (drive.core.tickets): an evening and more.
LIVE_TICKET_MAX_AGE = int(os.environ.get("LIVE_TICKET_MAX_AGE", 24 * 3600))
# Proxies in front that append to X-Forwarded-For (0: ignore the header; see drive.core.client).
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", 0))
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "drive.core.api_errors.exception_handler",
    # JSON bounded in size and depth (drive.core.limits): a 400, never the decoder's RecursionError.
    "DEFAULT_PARSER_CLASSES": ["drive.core.limits.BoundedJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_PAGINATION_CLASS": None,
    # Keyed on the real client address (drive.core.client): "token" counts misses of a secret
    # URL, "results" the entries of one table from one address (4 phones x 24 hands fit).
    "DEFAULT_THROTTLE_RATES": {"signup": "30/hour", "door": "60/minute", "login": "20/minute",
                               "token": "30/minute", "results": "150/minute"},
    "NUM_PROXIES": TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Whist drive API",
    "DESCRIPTION": "Everything a page can do: events, registration, check-in.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The token routes' rate limit (drive.core.throttles) answers 429: the schema says so.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "drive.core.throttles.document_route_limits"],
    # One name a choice set, where fields of the same name carry different sets.
    "ENUM_NAME_OVERRIDES": {
        "RoundStateEnum": "drive.scoring.models.Round.State",
        "SeatEnum": "drive.scoring.models.Seat.Position",
        "PrizeKindEnum": "drive.events.prizes.PrizeKind",
    },
}

# --- production hardening (check --deploy is clean with DJANGO_DEBUG=false) -------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 31536000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}

# Self check-in with the door code opens this many hours before the start.
CHECKIN_OPENS_HOURS_BEFORE = 3
# Annealing steps the movement optimiser may take (never seconds, so the same request
# gives the same movement on any machine): the whole plan (a Celery task), and a re-plan
# for late arrivals and leavers (the organiser waits for the page). The seconds are only
# a safety net, far above the expected time; a search it stops is reported (the
# movement's quality["search"]["safety_cap_hit"] and a warning in the log).
MOVEMENT_WORK_BUDGET = int(os.environ.get("MOVEMENT_WORK_BUDGET", 20_000))
REPLAN_WORK_BUDGET = int(os.environ.get("REPLAN_WORK_BUDGET", 5_000))
MOVEMENT_SAFETY_SECONDS = float(os.environ.get("MOVEMENT_SAFETY_SECONDS", 240))  # < the visibility timeout
REPLAN_SAFETY_SECONDS = float(os.environ.get("REPLAN_SAFETY_SECONDS", 60))

"""ASGI entry point: HTTP through Django, websockets through Channels."""
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drive.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from drive.core import beat  # noqa: E402
from drive.core.origins import SiteOriginValidator  # noqa: E402
from drive.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Every socket (tables, live pages, screens) only from the site's own pages: scheme, host and port.
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

beat.start()  # the embedded default's sweeps (bin/serve asks for them): nothing else runs them

# What loading made (Django, the apps, the engine: most of a server's objects) lives as long
# as the process: the collector no longer walks it at every full collection, which under
# load held a server, its sockets and its actions 0.1-0.4 s each time.
gc.freeze()

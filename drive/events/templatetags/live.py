"""Tags of the live pages.

{% live_ticket event.pk %}: the ticket to an event's live feed (see drive.core.tickets).
Used only in templates of views that checked the viewer may see the event.

{% cachedhtml key %}...{% endcachedhtml %}: the block rendered once per key (and
language), then served from the cache (drive.core.rendercache); what it reads is read only
when it is rendered. An empty key renders it every time.
"""
from django import template

from drive.core.rendercache import cached_html
from drive.core.tickets import issue_ticket

register = template.Library()


@register.simple_tag
def live_ticket(event_id):
    return issue_ticket(event_id)


class CachedHtmlNode(template.Node):
    def __init__(self, nodelist, key):
        self.nodelist, self.key = nodelist, key

    def render(self, context):
        key = self.key.resolve(context)
        if not key:
            return self.nodelist.render(context)
        return cached_html(f"block:{key}", lambda: self.nodelist.render(context))


@register.tag
def cachedhtml(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% cachedhtml key %} takes one key")
    nodelist = parser.parse(("endcachedhtml",))
    parser.delete_first_token()
    return CachedHtmlNode(nodelist, parser.compile_filter(bits[1]))

"""Who a request or a task acts for: a signed-in account or the anonymous visitor."""
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account  # the project keeps Django's own account model

User = Account | AnonymousUser

"""Who a request or a task acts for: a signed-in account or the anonymous visitor."""
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

User = AbstractBaseUser | AnonymousUser

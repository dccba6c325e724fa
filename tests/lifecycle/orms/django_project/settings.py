# The smallest Django project with a model whose key the database makes (events/models.py).
# The server comes from the environment (tests/lifecycle/orms.sh).
import os

SECRET_KEY = "not a secret: a test project"
INSTALLED_APPS = ["events"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "HOST": "127.0.0.1",
        "PORT": os.environ["PGPORT"],
        "NAME": os.environ["PGDATABASE"],
        "USER": os.environ.get("PGUSER", "postgres"),
    }
}
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

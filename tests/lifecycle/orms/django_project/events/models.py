# docs/ORMS.md, Django: as written there.
from django.db import models
from django.db.models.expressions import DatabaseDefault


class UUIDv7(models.Func):
    """uuid_ext's uuid_generate_v7(), as a database default."""

    function = "uuid_generate_v7"
    template = "%(function)s()"
    output_field = models.UUIDField()


class ServerUUIDField(models.UUIDField):
    """A key the database makes, read back from the INSERT's RETURNING (bulk_create included)."""

    db_returning = True

    def get_pk_value_on_save(self, instance):
        return None

    def pre_save(self, model_instance, add):
        value = super().pre_save(model_instance, add)
        return DatabaseDefault(self.db_default, output_field=self) if add and value is None else value


class ServerKeyQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for obj in objs:
            if isinstance(obj.pk, DatabaseDefault):
                obj.pk = None  # unset: the INSERT's RETURNING sets it
        return super().bulk_create(objs, *args, **kwargs)


class Event(models.Model):
    id = ServerUUIDField(primary_key=True, db_default=UUIDv7(), editable=False)
    seq = models.IntegerField()

    objects = ServerKeyQuerySet.as_manager()
